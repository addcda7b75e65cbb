#!/usr/bin/env python3
"""Builds a tactics suite from games level 5 lost to Fairy-Stockfish.

    python3 benches/tactics/make.py [--part missed|kept] FAIRY_STOCKFISH VARIANT LOG... > SUITE.jsonl

LOG is the output of `cargo bench --bench versus -- ... --moves` (each game's line, then its
moves). For every game level 5 lost, Fairy-Stockfish judges each position where level 5 was to
move (100 ms each). A move is a candidate when level 5's position, by that judgement, fell by
250 or more between this move and its next one, from no worse than -400 (the game was not yet
lost), and Fairy-Stockfish would have played another move. Each candidate is searched again
for 1.5 s twice: freely, and with level 5's move alone (`searchmoves`). It enters the suite
when Fairy-Stockfish's move is at least 200 better than level 5's and scores -300 or more.
Positions met in more than one game are judged once. These are the suite's `missed` positions.

A suite of level 5's mistakes alone favours any change of the search: whatever moves it off
the moves it played there finds more of them. So the suite also holds `kept` positions, where
level 5 found the only good move: in every game, lost or not, every third position where level
5 was to move from its 10th move on, Fairy-Stockfish (two lines, 100 ms, then 1.5 s to
confirm) plays level 5's move, scored from -300 to 1500, and its second move is at least 200
worse and not itself a clear win (500 or less).
There `best` is level 5's move and `avoid` Fairy-Stockfish's second.

Only Fairy-Stockfish's judgements of the positions are used; it is spoken to over its USI
interface, as a program.

`judkins.jsonl` was made from the 13 Judkins Shogi `versus` logs of 1 s a move kept from the
matches in the book (docs/src/developing/engine.md) and in `SearchParams`' doc (260 games, 177 lost): 29 mistakes from 97
candidates, and, of the first 138 kept positions (the run was stopped there), every second
one up to 58.
"""
import json
import re
import subprocess
import sys


def main():
    args = sys.argv[1:]
    parts = {'missed', 'kept'}
    if args[:1] == ['--part'] and len(args) > 1 and args[1] in parts:
        parts, args = {args[1]}, args[2:]
    if len(args) < 3:
        sys.exit(__doc__)
    fsf, variant, logs = args[0], args[1], args[2:]
    p = subprocess.Popen([fsf], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + '\n')
        p.stdin.flush()

    def until(prefix):
        lines = []
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit('Fairy-Stockfish ended')
            lines.append(line)
            if line.startswith(prefix):
                return lines

    send('usi')
    until('usiok')
    for name, value in [('UCI_Variant', variant), ('Threads', '1'), ('USI_Hash', '64')]:
        send(f'setoption name {name} value {value}')
    send('isready')
    until('readyok')

    def score_of(t):
        kind, value = t[t.index('score') + 1:t.index('score') + 3]
        value = int(value)
        if kind == 'mate':
            value = (30000 - abs(value) * 100) * (1 if value > 0 else -1)
        return value

    def judge(moves, ms, searchmoves=None):
        """Fairy-Stockfish's score (centipawns, mates as +-30000 less 100 a move) and move."""
        send('position startpos' + (' moves ' + ' '.join(moves) if moves else ''))
        send(f'go movetime {ms}' + (f' searchmoves {searchmoves}' if searchmoves else ''))
        lines = until('bestmove')
        best = lines[-1].split()[1]
        info = [l for l in lines if ' score ' in l and ' pv ' in l]
        if not info:
            return None, best
        return score_of(info[-1].split()), best

    def two_lines(moves, ms):
        """The two best moves and their scores by a search of two lines (None: fewer)."""
        send('setoption name MultiPV value 2')
        send('position startpos' + (' moves ' + ' '.join(moves) if moves else ''))
        send(f'go movetime {ms}')
        lines = until('bestmove')
        send('setoption name MultiPV value 1')
        last = {}
        for line in lines:
            t = line.split()
            if ' score ' in line and ' pv ' in line and 'multipv' in t:
                last[t[t.index('multipv') + 1]] = (score_of(t), t[t.index('pv') + 1])
        if '1' not in last or '2' not in last:
            return None
        return last['1'], last['2']

    games, every = [], []
    for f in logs:
        lines = open(f).read().split('\n')
        for i, line in enumerate(lines):
            m = re.match(r'(\S+) game \d+/\d+: Tegami (Black|White): Tegami (loses|wins|draws)', line)
            if not m or m.group(1) != variant or i + 1 >= len(lines):
                continue
            moves = lines[i + 1].strip()
            if moves.startswith('moves:'):
                every.append((m.group(2), moves.split()[1:]))
                if m.group(3) == 'loses':
                    games.append(every[-1])
    print(f'{len(games)} lost games', file=sys.stderr)

    seen = set()
    candidates = []
    for colour, moves in games if 'missed' in parts else []:
        me = 0 if colour == 'Black' else 1
        plies = range(me, len(moves), 2)
        judged = {}
        for k in plies:
            key = ' '.join(moves[:k])
            if key in seen:
                continue
            seen.add(key)
            judged[k] = judge(moves[:k], 100)
        for k in plies:
            if k not in judged or k + 2 not in judged:
                continue
            (before, best), (after, _) = judged[k], judged[k + 2]
            if before is None or after is None or not -400 <= before <= 1500 or best == moves[k]:
                continue
            if before - after >= 250:
                candidates.append((moves[:k], moves[k]))
    print(f'{len(candidates)} candidates', file=sys.stderr)

    kept = 0
    for prefix, played in candidates:
        best_score, best = judge(prefix, 1500)
        played_score, _ = judge(prefix, 1500, played)
        if best_score is None or played_score is None or best == played:
            continue
        if best_score - played_score >= 200 and best_score >= -300:
            kept += 1
            print(json.dumps({'variant': variant, 'moves': ' '.join(prefix), 'best': best,
                              'avoid': played, 'best_score': best_score,
                              'avoid_score': played_score}), flush=True)
    print(f'{kept} missed positions', file=sys.stderr)

    kept = 0
    for colour, moves in every if 'kept' in parts else []:
        me = 0 if colour == 'Black' else 1
        for k in range(me + 18, len(moves), 6):
            key = ' '.join(moves[:k])
            if key in seen:
                continue
            seen.add(key)
            for ms in (100, 1500):
                lines = two_lines(moves[:k], ms)
                if lines is None:
                    break
                (s1, m1), (s2, m2) = lines
                if m1 != moves[k] or s1 - s2 < 200 or not -300 <= s1 <= 1500 or s2 > 500:
                    break
            else:
                kept += 1
                print(json.dumps({'variant': variant, 'moves': key, 'best': m1, 'avoid': m2,
                                  'best_score': s1, 'avoid_score': s2, 'kept': True}), flush=True)
    print(f'{kept} kept positions', file=sys.stderr)
    send('quit')


if __name__ == '__main__':
    main()
