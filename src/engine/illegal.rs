//! Why a move cannot be played. `Position::check_move` tests a move against every rule in turn
//! and names the first one it breaks; `message` turns the reason into a sentence for a player.

use crate::engine::piece::{code_color, is_piece, Piece, PieceKind, EMPTY};
use crate::engine::square::DIRS8;
use crate::engine::variant::{DropMate, DropZone};
use crate::engine::{Color, Move, Position, Square, Variant};

/// The reason a move is illegal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IllegalMove {
    /// The game is over.
    GameOver,
    /// A square of the move is not on this board.
    OffBoard,
    /// There is no piece on the square the move starts from.
    NoPiece { from: Square },
    /// The piece there belongs to the opponent.
    NotYourPiece { from: Square },
    /// One's own piece stands on the target square.
    OwnPiece { to: Square },
    /// The piece does not move that way (or its path is blocked).
    CannotReach {
        kind: PieceKind,
        from: Square,
        to: Square,
    },
    /// This kind of piece does not promote (or is promoted already).
    CannotPromote { kind: PieceKind },
    /// Promotion needs a move into, within or out of the promotion zone (or, for pieces that
    /// must promote, a move ending in it).
    NotInZone { kind: PieceKind },
    /// The piece must promote on this move.
    MustPromote { kind: PieceKind, to: Square },
    /// No such piece in hand.
    NotInHand { kind: PieceKind },
    /// Drops go to empty squares only.
    DropOnOccupied { to: Square },
    /// A piece may not be dropped where it could never move.
    DeadDrop { kind: PieceKind, to: Square },
    /// Outside the ranks where this kind may be dropped.
    DropOutsideZone { kind: PieceKind, to: Square },
    /// Two pawns (footsoldiers) of one side on a file.
    TwoPawns { kind: PieceKind, to: Square },
    /// Already the most pawns (footsoldiers) allowed on the board.
    TooManyPawns { kind: PieceKind, max: u8 },
    /// A pawn (footsoldier) drop may not give checkmate.
    PawnDropMate { kind: PieceKind },
    /// The king is in check and the move does not answer it.
    InCheck,
    /// The move would put or leave one's own king in check.
    SelfCheck,
    /// Palace Shogi: inside her palace the queen only steps diagonally.
    QueenInPalace,
    /// Palace Shogi: the queen's slide may not pass through her own palace.
    QueenWall,
    /// Palace Shogi: a lion never captures a lion.
    LionTakesLion,
    /// Palace Shogi: a lion may stare only when an adjacent square is empty.
    LionCannotStare,
    /// Palace Shogi: a lion's double move starts with a capture.
    LionFirstStepMustCapture,
    /// Palace Shogi: the queen may not promote while her side has a lion.
    SecondLion,
    /// Palace Shogi: a cannon does not hop over a cannon.
    CannonScreen,
    /// Palace Shogi: a cannon does not capture a cannon.
    CannonTarget,
    /// Palace Shogi: no castling right with that lance.
    NoCastlingRight { lance: Square },
    /// Palace Shogi: the squares between king and lance are not empty.
    CastlingBlocked,
    /// Palace Shogi: no castling out of check.
    CastlingInCheck,
    /// Palace Shogi: the king would cross or land on an attacked square.
    CastlingThroughCheck { square: Square },
    /// Shanghai Palace Chess: the move would make the same position a third time.
    ThirdRepetition,
    /// Shanghai Palace Chess: the piece may not leave its palace (or cross the river).
    Confined { kind: PieceKind, to: Square },
    /// Shanghai Palace Chess: a Western pawn on the last rank must become a Western queen,
    /// rook, bishop or knight.
    PromotionChoice { kind: PieceKind },
}

impl IllegalMove {
    /// A sentence a player understands.
    pub fn message(&self, v: &Variant) -> String {
        let sq = |s: Square| v.square_name(s);
        let file = |s: Square| {
            let n = v.square_name(s);
            n[..n.len() - 1].to_string()
        };
        match *self {
            IllegalMove::GameOver => "the game is over".into(),
            IllegalMove::OffBoard => "that square is not on the board".into(),
            IllegalMove::NoPiece { from } => format!("there is no piece on {}", sq(from)),
            IllegalMove::NotYourPiece { from } => {
                format!("the piece on {} is your opponent's", sq(from))
            }
            IllegalMove::OwnPiece { to } => format!("your own piece stands on {}", sq(to)),
            IllegalMove::CannotReach { kind, from, to } => format!(
                "your {} on {} cannot move to {}",
                v.piece_name(kind),
                sq(from),
                sq(to)
            ),
            IllegalMove::CannotPromote { kind } => format!("a {} does not promote", v.piece_name(kind)),
            IllegalMove::NotInZone { kind } => {
                if v.spec.promotion.mandatory.contains(&kind) {
                    format!("a {} promotes only on a move ending in the promotion zone", v.piece_name(kind))
                } else {
                    format!(
                        "a {} promotes only on a move into, within or out of the promotion zone",
                        v.piece_name(kind)
                    )
                }
            }
            IllegalMove::MustPromote { kind, to } => {
                if v.spec.promotion.mandatory.contains(&kind) {
                    format!("a {} must promote on a move ending in the promotion zone ({})", v.piece_name(kind), sq(to))
                } else {
                    format!(
                        "a {} on {} could never move again: it must promote there",
                        v.piece_name(kind),
                        sq(to)
                    )
                }
            }
            IllegalMove::NotInHand { kind } => format!("you have no {} in hand", v.piece_name(kind)),
            IllegalMove::DropOnOccupied { to } => {
                format!("{} is occupied: pieces are dropped on empty squares", sq(to))
            }
            IllegalMove::DeadDrop { kind, to } => format!(
                "a {} dropped on {} could never move: it may not be dropped there",
                v.piece_name(kind),
                sq(to)
            ),
            IllegalMove::DropOutsideZone { kind, to } => {
                let zone = v.spec.drops.zones.iter().find(|(k, _)| *k == kind).map(|(_, z)| *z);
                match zone {
                    Some(DropZone::Nearest(n)) => format!(
                        "a {} may only be dropped on your {} nearest ranks, not on {}",
                        v.piece_name(kind),
                        n,
                        sq(to)
                    ),
                    Some(DropZone::NotEnemyPalace) => format!(
                        "a {} may not be dropped in the enemy palace ({})",
                        v.piece_name(kind),
                        sq(to)
                    ),
                    None => format!("a {} may not be dropped on {}", v.piece_name(kind), sq(to)),
                }
            }
            IllegalMove::TwoPawns { kind, to } => {
                let n = v.spec.drops.pawn_file_ranks;
                if n >= v.ranks() {
                    format!(
                        "you already have an unpromoted {} on file {} (two {}s on a file)",
                        v.piece_name(kind),
                        file(to),
                        v.piece_name(kind)
                    )
                } else {
                    format!(
                        "you already have a {} on file {} within your {} nearest ranks",
                        v.piece_name(kind),
                        file(to),
                        n
                    )
                }
            }
            IllegalMove::TooManyPawns { kind, max } => {
                format!("you already have {max} {}s on the board, the most allowed", v.piece_name(kind))
            }
            IllegalMove::PawnDropMate { kind } => {
                format!("a {} drop may not give checkmate", v.piece_name(kind))
            }
            IllegalMove::InCheck => {
                "your king is in check, and this move does not get it out of check".into()
            }
            IllegalMove::SelfCheck => "this move would leave your king in check".into(),
            IllegalMove::QueenInPalace => {
                "inside her own palace the queen moves only one step diagonally".into()
            }
            IllegalMove::QueenWall => {
                "the queen cannot slide through her own palace: a slide that enters it stops on its first square"
                    .into()
            }
            IllegalMove::LionTakesLion => "a lion may not capture a lion".into(),
            IllegalMove::LionCannotStare => {
                "a lion may stare (pass) only when a square next to it is empty".into()
            }
            IllegalMove::LionFirstStepMustCapture => {
                "a lion's double move must capture on its first step".into()
            }
            IllegalMove::SecondLion => {
                "you already have a lion: a queen may not promote while it lives".into()
            }
            IllegalMove::CannonScreen => "a cannon cannot hop over another cannon".into(),
            IllegalMove::CannonTarget => "a cannon cannot capture a cannon".into(),
            IllegalMove::NoCastlingRight { lance } => format!(
                "you can no longer castle with the lance on {} (the king or that lance has moved)",
                sq(lance)
            ),
            IllegalMove::CastlingBlocked => {
                "castling needs every square between the king and the lance empty".into()
            }
            IllegalMove::CastlingInCheck => "you cannot castle out of check".into(),
            IllegalMove::ThirdRepetition => {
                "this move would make the same position for the third time, which the rules forbid"
                    .into()
            }
            IllegalMove::Confined { kind, to } => match v
                .spec
                .confinement
                .iter()
                .find(|(k, _)| *k == kind)
                .map(|(_, r)| *r)
            {
                Some(crate::engine::variant::Region::OwnPalace) => {
                    format!("a {} never leaves its palace ({} is outside)", v.piece_name(kind), sq(to))
                }
                _ => format!("a {} never crosses the river ({} is beyond it)", v.piece_name(kind), sq(to)),
            },
            IllegalMove::PromotionChoice { kind } => format!(
                "a {} reaching the last rank must become one of: {}",
                v.piece_name(kind),
                v.spec
                    .promotion
                    .choices
                    .iter()
                    .find(|(k, _)| *k == kind)
                    .map(|(_, c)| c.iter().map(|&k| v.piece_name(k)).collect::<Vec<_>>().join(", "))
                    .unwrap_or_default()
            ),
            IllegalMove::CastlingThroughCheck { square } => format!(
                "the king may not castle across or onto an attacked square ({})",
                sq(square)
            ),
        }
    }
}

impl Position {
    /// Checks a move against every rule and says which one it breaks.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        let v = self.variant();
        let us = self.side_to_move();
        let own_piece = |from: Square| -> Result<Piece, IllegalMove> {
            if !v.contains(from) {
                return Err(IllegalMove::OffBoard);
            }
            let p = self.piece_at(from).ok_or(IllegalMove::NoPiece { from })?;
            if p.color != us {
                return Err(IllegalMove::NotYourPiece { from });
            }
            Ok(p)
        };
        match m {
            Move::Board { from, to, promote } => {
                let p = own_piece(from)?;
                if !v.contains(to) {
                    return Err(IllegalMove::OffBoard);
                }
                if from == to {
                    if promote {
                        return Err(IllegalMove::CannotPromote { kind: p.kind });
                    }
                    if p.kind != PieceKind::Lion || !v.has_kind(PieceKind::Lion) {
                        return Err(IllegalMove::CannotReach {
                            kind: p.kind,
                            from,
                            to,
                        });
                    }
                    if !DIRS8
                        .iter()
                        .any(|&d| self.board[from.offset(d).index()] == EMPTY)
                    {
                        return Err(IllegalMove::LionCannotStare);
                    }
                } else {
                    if self.piece_at(to).is_some_and(|q| q.color == us) {
                        return Err(IllegalMove::OwnPiece { to });
                    }
                    let moves = self.piece_moves(from);
                    if moves
                        .iter()
                        .any(|&o| matches!(o, Move::PromoteTo { to: t, .. } if t == to))
                    {
                        return Err(IllegalMove::PromotionChoice { kind: p.kind });
                    }
                    if !moves
                        .iter()
                        .any(|&o| matches!(o, Move::Board { to: t, .. } if t == to))
                    {
                        return Err(self.why_unreachable(p, from, to));
                    }
                    self.check_promotion(p, from, to, promote)?;
                }
            }
            Move::Lion { from, via, to } => {
                let p = own_piece(from)?;
                if !self.piece_moves(from).contains(&m) {
                    let c = self.board[via.index()];
                    let err = if p.kind != PieceKind::Lion {
                        IllegalMove::CannotReach {
                            kind: p.kind,
                            from,
                            to,
                        }
                    } else if c == Piece::new(PieceKind::Lion, !us).code()
                        || self.board[to.index()] == Piece::new(PieceKind::Lion, !us).code()
                    {
                        IllegalMove::LionTakesLion
                    } else if !(is_piece(c) && code_color(c) != us.index()) {
                        IllegalMove::LionFirstStepMustCapture
                    } else if self.piece_at(to).is_some_and(|q| q.color == us) && to != from {
                        IllegalMove::OwnPiece { to }
                    } else {
                        IllegalMove::CannotReach {
                            kind: p.kind,
                            from,
                            to,
                        }
                    };
                    return Err(err);
                }
            }
            Move::Castle { from, to } => {
                let p = own_piece(from)?;
                // The generator offers a castling whose way is clear; the squares' safety is
                // the legality test's, explained here first.
                if !self.piece_moves(from).contains(&m) {
                    return Err(self.why_no_castling(p, from, to));
                }
                let why = self.why_no_castling(p, from, to);
                if matches!(
                    why,
                    IllegalMove::CastlingInCheck | IllegalMove::CastlingThroughCheck { .. }
                ) {
                    return Err(why);
                }
            }
            Move::PromoteTo { from, to, .. } => {
                let p = own_piece(from)?;
                let moves = self.piece_moves(from);
                if !moves.contains(&m) {
                    let reaches = moves
                        .iter()
                        .any(|o| o.to() == to && matches!(o, Move::PromoteTo { .. }));
                    return Err(if reaches {
                        IllegalMove::PromotionChoice { kind: p.kind }
                    } else if self.piece_at(to).is_some_and(|q| q.color == us) {
                        IllegalMove::OwnPiece { to }
                    } else {
                        IllegalMove::CannotReach {
                            kind: p.kind,
                            from,
                            to,
                        }
                    });
                }
            }
            Move::EnPassant { from, to } => {
                let p = own_piece(from)?;
                if !self.piece_moves(from).contains(&m) {
                    return Err(IllegalMove::CannotReach {
                        kind: p.kind,
                        from,
                        to,
                    });
                }
            }
            Move::Drop { kind, to } => self.check_drop(kind, to)?,
        }
        let mut p = self.clone();
        let ctx = p.legal_ctx();
        if !p.is_legal(m, &ctx) {
            if let Move::Drop { kind, to } = m {
                if Some(kind) == v.spec.drops.pawn && v.spec.drops.pawn_mate != DropMate::Allowed {
                    // Refused although our king is safe after it: the drop mates.
                    let mut after = self.clone();
                    after.put(to, Piece::new(kind, us).code());
                    if !after.is_in_check(us) {
                        return Err(IllegalMove::PawnDropMate { kind });
                    }
                }
            }
            return Err(if self.in_check() {
                IllegalMove::InCheck
            } else {
                IllegalMove::SelfCheck
            });
        }
        Ok(())
    }

    fn check_promotion(
        &self,
        p: Piece,
        from: Square,
        to: Square,
        promote: bool,
    ) -> Result<(), IllegalMove> {
        let v = self.variant();
        let t = &v.t;
        let us = p.color;
        let code = p.code() as usize;
        let can_promote = t.promote[code] != 0;
        if promote {
            if !can_promote {
                return Err(IllegalMove::CannotPromote { kind: p.kind });
            }
            let in_zone = if t.mandatory[code] {
                v.in_zone(us, to)
            } else {
                v.in_zone(us, from) || v.in_zone(us, to)
            };
            if !in_zone {
                return Err(IllegalMove::NotInZone { kind: p.kind });
            }
            if t.unique_promotion[code] && self.unique_present(us) {
                return Err(IllegalMove::SecondLion);
            }
        } else if (t.mandatory[code] && v.in_zone(us, to)) || v.is_dead_square(p, to) {
            return Err(IllegalMove::MustPromote { kind: p.kind, to });
        }
        Ok(())
    }

    fn check_drop(&self, kind: PieceKind, to: Square) -> Result<(), IllegalMove> {
        let v = self.variant();
        let us = self.side_to_move();
        if !v.contains(to) {
            return Err(IllegalMove::OffBoard);
        }
        if !v.spec.drops.enabled || self.hand(us, kind) == 0 {
            return Err(IllegalMove::NotInHand { kind });
        }
        if self.board[to.index()] != EMPTY {
            return Err(IllegalMove::DropOnOccupied { to });
        }
        let code = Piece::new(kind, us).code();
        if v.is_dead_square(Piece::new(kind, us), to) {
            return Err(IllegalMove::DeadDrop { kind, to });
        }
        if v.t.drop_forbidden[code as usize][to.index()] {
            return Err(IllegalMove::DropOutsideZone { kind, to });
        }
        if Some(kind) == v.spec.drops.pawn {
            if let Some(max) = v.spec.drops.max_pawns {
                if self.counts[code as usize] >= max {
                    return Err(IllegalMove::TooManyPawns { kind, max });
                }
            }
            if self.pawn_files(us) & (1 << to.col()) != 0 {
                return Err(IllegalMove::TwoPawns { kind, to });
            }
        }
        Ok(())
    }

    /// The most telling reason a piece cannot go from `from` to `to`.
    fn why_unreachable(&self, p: Piece, from: Square, to: Square) -> IllegalMove {
        let v = self.variant();
        let t = &v.t;
        let cannot = IllegalMove::CannotReach {
            kind: p.kind,
            from,
            to,
        };
        let (dc, dr) = (
            to.col() as i32 - from.col() as i32,
            to.row() as i32 - from.row() as i32,
        );
        let on_line = dc == 0 || dr == 0 || dc.abs() == dr.abs();
        let step = if on_line {
            let (sc, sr) = (dc.signum(), dr.signum());
            sc as i16 + sr as i16 * crate::engine::square::PAD_W as i16
        } else {
            0
        };
        let between: Vec<Square> = if on_line {
            let mut v = Vec::new();
            let mut s = from.offset(step);
            while s != to {
                v.push(s);
                s = s.offset(step);
            }
            v
        } else {
            Vec::new()
        };
        let empty_between = between.iter().all(|s| self.board[s.index()] == EMPTY);
        match p.kind {
            PieceKind::Queen if t.queen_walls[p.code() as usize] => {
                let geo = t.palace.as_ref().expect("queen walls only with palaces");
                let own = &geo.own[p.color.index()];
                if own[from.index()] {
                    return IllegalMove::QueenInPalace;
                }
                if on_line && empty_between && between.iter().any(|s| own[s.index()]) {
                    return IllegalMove::QueenWall;
                }
                cannot
            }
            PieceKind::Lion
                if self.board[to.index()] == Piece::new(PieceKind::Lion, !p.color).code() =>
            {
                IllegalMove::LionTakesLion
            }
            PieceKind::PalaceCannon if t.hop_excluded[p.code() as usize] => {
                if dc.abs() == 2 && dr.abs() == 2 {
                    // The corridor hop, corner to corner over the enemy palace's centre.
                    let mid = from.offset(step);
                    if self.piece_at(to).is_some() && self.piece_at(mid).is_some() {
                        if t.hop_excluded[self.board[mid.index()] as usize] {
                            return IllegalMove::CannonScreen;
                        }
                        if t.hop_excluded[self.board[to.index()] as usize] {
                            return IllegalMove::CannonTarget;
                        }
                    }
                    return cannot;
                }
                if dc != 0 && dr != 0 {
                    return cannot;
                }
                let screens: Vec<&Square> = between
                    .iter()
                    .filter(|s| self.board[s.index()] != EMPTY)
                    .collect();
                if screens.len() == 1 && self.piece_at(to).is_some() {
                    if t.hop_excluded[self.board[screens[0].index()] as usize] {
                        return IllegalMove::CannonScreen;
                    }
                    if t.hop_excluded[self.board[to.index()] as usize] {
                        return IllegalMove::CannonTarget;
                    }
                }
                cannot
            }
            _ if t.confined && !t.allowed[p.code() as usize][to.index()] => {
                IllegalMove::Confined { kind: p.kind, to }
            }
            _ => cannot,
        }
    }

    fn why_no_castling(&self, p: Piece, from: Square, to: Square) -> IllegalMove {
        let cannot = IllegalMove::CannotReach {
            kind: p.kind,
            from,
            to,
        };
        if p.kind != PieceKind::King || self.v.t.palace.is_none() {
            return cannot;
        }
        let (lance, _) = crate::engine::moves::castle_lance(from, to);
        let bit = crate::engine::geometry::CASTLE_SQUARES
            .iter()
            .position(|&s| s == lance);
        let Some(bit) = bit.filter(|&b| crate::engine::geometry::castle_color(b) == p.color) else {
            return cannot;
        };
        if self.castling & (1 << bit) == 0 {
            return IllegalMove::NoCastlingRight { lance };
        }
        let step: i16 = if lance.col() < from.col() { -1 } else { 1 };
        let mut s = from.offset(step);
        while s != lance {
            if self.board[s.index()] != EMPTY {
                return IllegalMove::CastlingBlocked;
            }
            s = s.offset(step);
        }
        let them: Color = !p.color;
        if self.attacked(from, them) {
            return IllegalMove::CastlingInCheck;
        }
        for sq in [from.offset(step), to] {
            if self.attacked(sq, them) {
                return IllegalMove::CastlingThroughCheck { square: sq };
            }
        }
        cannot
    }

    /// Plays a move after checking it.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        self.check_move(m)?;
        self.make(m);
        Ok(())
    }
}
