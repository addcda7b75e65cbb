//! The move picker (issue 50): a move made by pointing, for players who know neither the
//! notation nor how the pieces move.
//!
//! Every legal move of the position is a *path* of short choices: the piece (its square, or
//! `P*` for a kind in hand), where it goes, then what finishes the move when one square leaves
//! a choice (`+`/`=` promote or not, a Shanghai pawn's new piece, a Palace lion's second step or
//! `.` to stop after its first). The picker is the tree of these paths: each step shows the
//! children of the path chosen so far, as select menus (pieces, squares) or buttons (finishing
//! choices), and a leaf is one move, confirmed by a button that names it as the player writes it
//! and ends with its move code. Since the tree is made from `legal_moves`, every legal move is
//! reachable and nothing else is; `tests` walk it for the five games.
//!
//! The picker is transport-agnostic: [`Picker`] says what to show (text, a board with marks,
//! menus of at most [`MENU_MAX`] options, buttons) and where each choice leads ([`PickAction`]);
//! the Discord adapter turns it into components and back (see [`PickId`]), the console prints it.
//! Playing goes through `Command::Move` with the ply the picker was made for, so a picker made
//! on an older position plays nothing.

use super::*;
use crate::engine::notation::{code, Notation};
use crate::engine::{Move, PieceKind, Position, Square, Variant};
use crate::i18n::Lang;
use crate::{msg, t};

/// Discord's limits: 25 options a select menu, 5 rows a message (one is kept for the
/// buttons), 5 buttons a row, 100 characters an option's label and description, 80 a
/// button's label.
pub const MENU_MAX: usize = 25;
pub const MENUS_MAX: usize = 4;
pub const BUTTONS_MAX: usize = 5;
pub const LABEL_MAX: usize = 80;

/// What the picker shows at one step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Picker {
    pub game: i64,
    /// The ply the picker was made for: its moves are played only at that ply.
    pub ply: u32,
    /// The choices made so far.
    pub path: Vec<String>,
    /// Select menus, each of at most [`MENU_MAX`] options (at most [`MENUS_MAX`] of them).
    pub menus: Vec<PickMenu>,
    /// Finishing choices (promote or not, …), one row.
    pub choices: Vec<PickButton>,
    /// Play, Back, Cancel, and the pages of a long step: the last row.
    pub nav: Vec<PickButton>,
}

/// A select menu: choosing option `token` leads to `path` + `token`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PickMenu {
    pub placeholder: String,
    pub path: Vec<String>,
    pub options: Vec<PickOption>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PickOption {
    pub label: String,
    pub description: Option<String>,
    pub token: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PickButton {
    pub label: String,
    pub action: PickAction,
    pub style: PickStyle,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickStyle {
    Primary,
    Secondary,
    Success,
    Danger,
}

/// Where a button leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PickAction {
    /// Another step of this picker: the choices so far, and the page of a long step.
    Go { path: Vec<String>, page: u32 },
    /// A new picker on the position as it is now (after a stale one).
    Fresh,
    /// Plays the move (its code) at the picker's ply.
    Play { code: String },
    /// Closes the picker.
    Cancel,
}

/// A picker's component id, as a transport keeps it between steps: `tgk:GAME:PLY:OPENED:ACT:PATH`
/// (OPENED: when the picker was opened, in ms since the epoch, for its expiry; ACT: `m0`..`m3`
/// for a menu, whose chosen value is the next choice, `g0`.. for a step and its page, `p` to
/// play (PATH is then the move code), `f` for a fresh picker, `x` to cancel; PATH: the choices
/// joined by `/`). At most about 70 characters, under Discord's 100.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PickId {
    pub game: i64,
    pub ply: u32,
    pub opened: i64,
    pub act: PickAct,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PickAct {
    /// Menu `n` of the step at `path`: the choice is the value picked.
    Menu {
        n: u8,
        path: Vec<String>,
    },
    Go {
        path: Vec<String>,
        page: u32,
    },
    Play {
        code: String,
    },
    Fresh,
    Cancel,
}

/// A button's action as its id carries it.
impl From<&PickAction> for PickAct {
    fn from(a: &PickAction) -> PickAct {
        match a {
            PickAction::Go { path, page } => PickAct::Go {
                path: path.clone(),
                page: *page,
            },
            PickAction::Fresh => PickAct::Fresh,
            PickAction::Play { code } => PickAct::Play { code: code.clone() },
            PickAction::Cancel => PickAct::Cancel,
        }
    }
}

impl PickId {
    pub const PREFIX: &'static str = "tgk:";

    pub fn encode(&self) -> String {
        let join = |p: &[String]| p.join("/");
        let (act, rest) = match &self.act {
            PickAct::Menu { n, path } => (format!("m{n}"), join(path)),
            PickAct::Go { path, page } => (format!("g{page}"), join(path)),
            PickAct::Play { code } => ("p".into(), code.clone()),
            PickAct::Fresh => ("f".into(), String::new()),
            PickAct::Cancel => ("x".into(), String::new()),
        };
        format!(
            "{}{}:{}:{}:{act}:{rest}",
            Self::PREFIX,
            self.game,
            self.ply,
            self.opened
        )
    }

    /// Reads an id; `None` for anything that is not one (a forged id reads as nothing or as a
    /// request the core checks like any other).
    pub fn decode(id: &str) -> Option<PickId> {
        let rest = id.strip_prefix(Self::PREFIX)?;
        let mut parts = rest.splitn(5, ':');
        let game = parts.next()?.parse().ok()?;
        let ply = parts.next()?.parse().ok()?;
        let opened = parts.next()?.parse().ok()?;
        let act = parts.next()?;
        let tail = parts.next()?;
        let path = || -> Vec<String> {
            tail.split('/')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        };
        let act = match (act.get(..1)?, act.get(1..)?) {
            ("m", n) => PickAct::Menu {
                n: n.parse().ok()?,
                path: path(),
            },
            ("g", page) => PickAct::Go {
                path: path(),
                page: page.parse().ok()?,
            },
            ("p", "") if !tail.is_empty() => PickAct::Play {
                code: tail.to_string(),
            },
            ("f", "") => PickAct::Fresh,
            ("x", "") => PickAct::Cancel,
            _ => return None,
        };
        Some(PickId {
            game,
            ply,
            opened,
            act,
        })
    }
}

/// One legal move as the picker reaches it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaf {
    pub path: Vec<String>,
    pub mv: Move,
}

/// The finishing tokens (shown as buttons): promote, do not promote, stop (a lion after its
/// first step), and a Shanghai pawn's new piece (its letter in lower case).
fn is_finish(token: &str) -> bool {
    matches!(token, "+" | "=") || token.chars().all(|c| c.is_ascii_lowercase())
}

/// The token that ends a path that is also the beginning of longer ones: a lion's capture that
/// stops on its first square (`5e5d`) beside the moves that step on (`5e5d5c`).
const STOP: &str = ".";

/// Every legal move of `pos` as a path of choices (see the module header). No path is a prefix
/// of another, and no two are equal.
pub fn leaves(pos: &Position, legal: &[Move]) -> Vec<Leaf> {
    let v = pos.variant();
    let sq = |s: Square| v.square_name(s);
    let promotes_both = |from: Square, to: Square| {
        legal.contains(&Move::Board {
            from,
            to,
            promote: true,
        }) && legal.contains(&Move::Board {
            from,
            to,
            promote: false,
        })
    };
    let mut out: Vec<Leaf> = legal
        .iter()
        .map(|&m| {
            let path = match m {
                Move::Board { from, to, promote } => {
                    let mut p = vec![sq(from), sq(to)];
                    if promotes_both(from, to) {
                        p.push(if promote { "+" } else { "=" }.to_string());
                    }
                    p
                }
                Move::Lion { from, via, to } => vec![sq(from), sq(via), sq(to)],
                Move::Castle { from, to } | Move::EnPassant { from, to } => vec![sq(from), sq(to)],
                Move::PromoteTo { from, to, kind } => vec![
                    sq(from),
                    sq(to),
                    v.letter(kind)
                        .map_or_else(|| kind.name().to_string(), |l| l.code.to_string())
                        .to_ascii_lowercase(),
                ],
                Move::Drop { to, .. } => {
                    let c = code::write(v, m);
                    let hand = c.split_once('*').map_or(c.as_str(), |(k, _)| k);
                    vec![format!("{hand}*"), sq(to)]
                }
            };
            Leaf { path, mv: m }
        })
        .collect();
    // A path that begins longer ones ends with a stop.
    let begun: std::collections::HashSet<&[String]> = out
        .iter()
        .flat_map(|l| (1..l.path.len()).map(move |n| &l.path[..n]))
        .collect();
    let stops: Vec<bool> = out.iter().map(|l| begun.contains(&l.path[..])).collect();
    for (l, stop) in out.iter_mut().zip(stops) {
        if stop {
            l.path.push(STOP.to_string());
        }
    }
    // Two moves on one path (none is known in the five games): the move code tells them apart.
    let mut seen: std::collections::HashMap<Vec<String>, usize> = std::collections::HashMap::new();
    for l in &out {
        *seen.entry(l.path.clone()).or_default() += 1;
    }
    for l in &mut out {
        if seen.get(&l.path).is_some_and(|&n| n > 1) {
            l.path.push(code::write(v, l.mv));
        }
    }
    out
}

/// How the picker names things: in the player's language and notation.
struct Speech<'a> {
    v: &'static Variant,
    lang: Lang,
    notation: Notation,
    written: &'a [(Move, String)],
}

impl Speech<'_> {
    /// A square as the player writes it: `4i`, `４九` in Japanese notation (Shanghai keeps `e4`).
    fn square(&self, s: Square) -> String {
        match self.notation {
            Notation::Japanese => crate::i18n::refusal::square(Lang::Ja, self.v, s),
            _ => self.v.square_name(s),
        }
    }

    fn piece(&self, kind: PieceKind) -> String {
        crate::i18n::refusal::piece(self.lang, self.v, kind)
    }

    fn written(&self, m: Move) -> String {
        self.written
            .iter()
            .find(|(w, _)| *w == m)
            .map_or_else(|| code::write(self.v, m), |(_, s)| s.clone())
    }

    /// What a square-token names: the square in the player's writing.
    fn token_square(&self, token: &str) -> Option<Square> {
        self.v.parse_square(token)
    }
}

/// Cuts a label to `max` characters (an ellipsis at the end).
fn fit(s: String, max: usize) -> String {
    if s.chars().count() <= max {
        return s;
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// The squares in the order a player sees them: from the far left corner, rank by rank.
fn seen_order(v: &Variant, viewer: Color, s: Square) -> (u8, u8) {
    let (c, r) = (s.col(), s.row());
    match viewer {
        Color::Black => (r, c),
        Color::White => (v.ranks() - 1 - r, v.files() - 1 - c),
    }
}

/// A step's menus: `items` cut into menus of at most [`MENU_MAX`], each named by the squares of
/// the first and last of what it holds (`Squares 9a–1c`, `Pieces that can move 9g–3i`: `at`
/// gives an option's square as the player writes it); `page` of them when more than [`MENUS_MAX`] menus
/// would be needed (pages are never needed on the five games' boards, but a long list is
/// never cut short).
fn menus_of(
    sections: Vec<(String, Vec<PickOption>)>,
    path: &[String],
    lang: Lang,
    at: &dyn Fn(&PickOption) -> String,
) -> Vec<PickMenu> {
    let mut out = Vec::new();
    for (name, options) in sections {
        let chunks: Vec<&[PickOption]> = options.chunks(MENU_MAX).collect();
        let several = chunks.len() > 1;
        for chunk in chunks {
            let placeholder = if several {
                t!(
                    lang,
                    "pick-menu-range",
                    what = name.clone(),
                    first = at(&chunk[0]),
                    last = at(&chunk[chunk.len() - 1])
                )
            } else {
                name.clone()
            };
            out.push(PickMenu {
                placeholder: fit(placeholder, 150),
                path: path.to_vec(),
                options: chunk.to_vec(),
            });
        }
    }
    out
}

/// What [`step`] needs: the position and its legal moves (with their written forms in the
/// player's notation), and where the player is in the picker.
#[derive(Clone, Copy)]
pub struct StepInput<'a> {
    pub game: i64,
    pub ply: u32,
    pub pos: &'a Position,
    /// The player's side (the side to move): their pieces, their hand, their view.
    pub side: Color,
    pub legal: &'a [Move],
    pub written: &'a [(Move, String)],
    pub lang: Lang,
    pub notation: Notation,
    pub path: &'a [String],
    pub page: u32,
}

/// One step of the picker: its text, menus and buttons, and what the board marks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub text: String,
    pub picker: Picker,
    pub marks: Marks,
}

/// The picker's step at `input.path`; `None` when no legal move begins with that path.
pub fn step(input: &StepInput) -> Option<Step> {
    let StepInput {
        game: id,
        ply,
        pos,
        side,
        legal,
        written,
        lang,
        notation,
        path,
        page,
    } = *input;
    let v = pos.variant();
    let all = leaves(pos, legal);
    let say = Speech {
        v,
        lang,
        notation,
        written,
    };
    // An option's square as the player writes it (a kind in hand: its label), for the names
    // of the menus a long list is cut into.
    let at = |o: &PickOption| {
        say.token_square(&o.token)
            .map_or_else(|| o.label.clone(), |s| say.square(s))
    };
    let below: Vec<&Leaf> = all
        .iter()
        .filter(|l| l.path.len() >= path.len() && l.path.starts_with(path))
        .collect();
    if below.is_empty() {
        return None;
    }
    let mut picker = Picker {
        game: id,
        ply,
        path: path.to_vec(),
        ..Picker::default()
    };
    let back = |picker: &mut Picker| {
        if !path.is_empty() {
            picker.nav.push(PickButton {
                label: t!(lang, "pick-back"),
                action: PickAction::Go {
                    path: path[..path.len() - 1].to_vec(),
                    page: 0,
                },
                style: PickStyle::Secondary,
            });
        }
        picker.nav.push(PickButton {
            label: t!(lang, "pick-cancel"),
            action: PickAction::Cancel,
            style: PickStyle::Danger,
        });
    };
    // The origin chosen, for the marks and the words.
    let origin = path.first().and_then(|t| say.token_square(t));
    let mut marks = Marks {
        selected: origin,
        ..Marks::default()
    };
    let text;
    if below.len() == 1 && below[0].path.len() == path.len() {
        // A whole move: confirmed by a button naming it.
        let m = below[0].mv;
        let w = say.written(m);
        let c = code::write(v, m);
        marks.marked = crate::render::move_squares(m);
        text = t!(
            lang,
            "pick-confirm",
            id = id,
            mv = w.clone(),
            code = c.clone()
        );
        picker.nav.push(PickButton {
            label: fit(t!(lang, "pick-play", mv = w, code = c.clone()), LABEL_MAX),
            action: PickAction::Play { code: c },
            style: PickStyle::Success,
        });
        back(&mut picker);
    } else {
        // The choices after `path`, each with the moves it leads to.
        let mut next: Vec<(String, Vec<Move>)> = Vec::new();
        for l in &below {
            let t = &l.path[path.len()];
            match next.iter_mut().find(|(n, _)| n == t) {
                Some((_, ms)) => ms.push(l.mv),
                None => next.push((t.clone(), vec![l.mv])),
            }
        }
        let viewer = side;
        if path.is_empty() {
            // The pieces that can move, then the kinds in hand.
            let (mut board, hand): (Vec<_>, Vec<_>) =
                next.into_iter().partition(|(t, _)| !t.ends_with('*'));
            board.sort_by_key(|(t, _)| say.token_square(t).map(|s| seen_order(v, viewer, s)));
            let board_opts: Vec<PickOption> = board
                .iter()
                .filter_map(|(t, ms)| {
                    let s = say.token_square(t)?;
                    let p = pos.piece_at(s)?;
                    Some(PickOption {
                        label: fit(
                            crate::render::capitalised(&t!(
                                lang,
                                "pick-piece",
                                piece = say.piece(p.kind),
                                square = say.square(s)
                            )),
                            100,
                        ),
                        description: Some(fit(
                            t!(lang, "pick-piece-moves", count = ms.len() as i64),
                            100,
                        )),
                        token: t.clone(),
                    })
                })
                .collect();
            let hand_opts: Vec<PickOption> = hand
                .iter()
                .filter_map(|(t, ms)| {
                    let kind = match ms.first()? {
                        Move::Drop { kind, .. } => *kind,
                        _ => return None,
                    };
                    Some(PickOption {
                        label: fit(
                            t!(
                                lang,
                                "pick-drop",
                                piece = say.piece(kind),
                                count = i64::from(pos.hand(side, kind))
                            ),
                            100,
                        ),
                        description: Some(fit(
                            t!(lang, "pick-drop-squares", count = ms.len() as i64),
                            100,
                        )),
                        token: t.clone(),
                    })
                })
                .collect();
            let mut sections = Vec::new();
            if !board_opts.is_empty() {
                sections.push((t!(lang, "pick-menu-pieces"), board_opts));
            }
            if !hand_opts.is_empty() {
                sections.push((t!(lang, "pick-menu-hand"), hand_opts));
            }
            picker.menus = menus_of(sections, path, lang, &at);
            text = t!(
                lang,
                "pick-start",
                id = id,
                side = crate::i18n::refusal::side(lang, v, side)
            );
        } else if next.iter().all(|(t, _)| is_finish(t) || t == STOP)
            && next.len() <= BUTTONS_MAX
            && next.iter().any(|(t, _)| is_finish(t))
        {
            // Promote or not, a pawn's new piece: buttons naming each whole move.
            for (t, ms) in &next {
                let w = ms.first().map(|&m| say.written(m)).unwrap_or_default();
                let label = match t.as_str() {
                    "+" => t!(lang, "pick-promote", mv = w),
                    "=" => t!(lang, "pick-no-promote", mv = w),
                    _ => w,
                };
                let mut p = path.to_vec();
                p.push(t.clone());
                picker.choices.push(PickButton {
                    label: fit(label, LABEL_MAX),
                    action: PickAction::Go { path: p, page: 0 },
                    style: PickStyle::Primary,
                });
            }
            let to = path.get(1).and_then(|t| say.token_square(t));
            marks.marked = to.into_iter().collect();
            text = t!(lang, "pick-finish", id = id);
        } else {
            // Squares: where the piece (or the piece dropped) goes, or a lion's second step.
            let mut squares: Vec<(String, Vec<Move>)> = next;
            squares.sort_by_key(|(t, _)| {
                say.token_square(t)
                    .map_or((0, 0), |s| seen_order(v, viewer, s))
            });
            let opts: Vec<PickOption> = squares
                .iter()
                .map(|(t, ms)| {
                    let label = match say.token_square(t) {
                        Some(s) => say.square(s),
                        None if t == STOP => t!(lang, "pick-stop"),
                        None => t.clone(),
                    };
                    let mut ws: Vec<String> = ms.iter().map(|&m| say.written(m)).collect();
                    ws.dedup();
                    PickOption {
                        label: fit(label, 100),
                        description: Some(fit(ws.join(" · "), 100)),
                        token: t.clone(),
                    }
                })
                .collect();
            marks.targets = squares
                .iter()
                .filter_map(|(t, _)| say.token_square(t))
                .collect();
            // The squares passed on the way (a lion's first step).
            marks.marked = path[1..]
                .iter()
                .filter_map(|t| say.token_square(t))
                .collect();
            let what = match path.first() {
                Some(t) if t.ends_with('*') => match below.first().map(|l| l.mv) {
                    Some(Move::Drop { kind, .. }) => {
                        t!(lang, "pick-drop-where", piece = say.piece(kind))
                    }
                    _ => t.clone(),
                },
                _ => match origin.and_then(|s| pos.piece_at(s)) {
                    Some(p) if path.len() == 1 => t!(
                        lang,
                        "pick-piece-where",
                        piece = say.piece(p.kind),
                        square = origin.map(|s| say.square(s)).unwrap_or_default()
                    ),
                    _ => t!(lang, "pick-second-step"),
                },
            };
            text = t!(
                lang,
                "pick-squares",
                id = id,
                what = what,
                count = opts.len() as i64
            );
            picker.menus = menus_of(vec![(t!(lang, "pick-menu-squares"), opts)], path, lang, &at);
        }
        // A step too long for one message is shown in pages.
        let pages = picker.menus.len().div_ceil(MENUS_MAX).max(1) as u32;
        if pages > 1 {
            let page = page.min(pages - 1);
            let shown: Vec<PickMenu> = picker
                .menus
                .drain(..)
                .skip(page as usize * MENUS_MAX)
                .take(MENUS_MAX)
                .collect();
            picker.menus = shown;
            if page > 0 {
                picker.nav.push(PickButton {
                    label: t!(lang, "pick-previous"),
                    action: PickAction::Go {
                        path: path.to_vec(),
                        page: page - 1,
                    },
                    style: PickStyle::Secondary,
                });
            }
            if page + 1 < pages {
                picker.nav.push(PickButton {
                    label: t!(lang, "pick-next"),
                    action: PickAction::Go {
                        path: path.to_vec(),
                        page: page + 1,
                    },
                    style: PickStyle::Secondary,
                });
            }
        }
        back(&mut picker);
    }
    Some(Step {
        text,
        picker,
        marks,
    })
}

impl Service {
    /// `pick`: the picker of `game` at the step `path` (page `page` of it), for the player to
    /// move. `seen_ply`: the ply the picker was opened at (`None`: opening it now). A picker
    /// made on an older position says so and offers a fresh one; someone else's turn, or
    /// someone else's game, is refused as a move would be.
    pub(crate) fn pick(
        &self,
        user: &User,
        place: &Place,
        game: Option<i64>,
        path: &[String],
        page: u32,
        seen_ply: Option<u32>,
    ) -> Result<Reply, CoreError> {
        let g = self.pick_game(user, place, game)?;
        let voice = user.voice;
        let lang = voice.lang;
        let id = g.row.id;
        // A picker left from an older position: nothing of it is offered any more.
        if let Some(seen) =
            seen_ply.filter(|&s| s != g.row.ply || g.row.status != GameStatus::Active)
        {
            let text = if g.row.status != GameStatus::Active {
                t!(lang, "pick-stale-over", id = id)
            } else {
                t!(lang, "pick-stale", id = id, seen = seen, now = g.row.ply)
            };
            let fresh = g.row.status == GameStatus::Active;
            return Ok(Reply {
                text,
                game: Some(g.game_ref(false)),
                picker: Some(Picker {
                    game: id,
                    ply: g.row.ply,
                    nav: if fresh {
                        vec![PickButton {
                            label: t!(lang, "pick-fresh"),
                            action: PickAction::Fresh,
                            style: PickStyle::Primary,
                        }]
                    } else {
                        Vec::new()
                    },
                    ..Picker::default()
                }),
                ..Reply::default()
            });
        }
        let side = self.my_side(&g, user)?;
        let pos = g.game.position().clone();
        if pos.side_to_move() != side {
            return user_err(msg!(
                "play-not-your-turn",
                id = id,
                name = self.shown_name(g.to_move(), g.row.guild.as_deref())
            ));
        }
        self.check_in_time(&g, user)?;
        let legal = g.game.legal_moves();
        let last = super::views::last_to(&g.game, g.game.moves().len());
        let written = super::views::written_moves_in(&g.game, voice.notation, last);
        let input = StepInput {
            game: id,
            ply: g.row.ply,
            pos: &pos,
            side,
            legal: &legal,
            written: &written,
            lang,
            notation: voice.notation,
            path,
            page,
        };
        let Some(Step {
            text,
            picker,
            marks,
        }) = step(&input)
        else {
            if path.is_empty() {
                return user_err(msg!("views-moves-none", id = id));
            }
            // A path no move has (a forged id, or a choice gone): back to the start.
            return self.pick(user, place, Some(id), &[], 0, Some(g.row.ply));
        };
        let image = self.board_picture(&g, &user.id, voice, &marks)?;
        Ok(Reply {
            text,
            attachments: image.into_iter().collect(),
            game: Some(g.game_ref(false)),
            picker: Some(picker),
            ..Reply::default()
        })
    }
}

/// What a board picture marks besides the last move (see `render::RenderOptions`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    pub selected: Option<Square>,
    pub marked: Vec<Square>,
    pub targets: Vec<Square>,
}
