"""``necro-replay``: verify, show, html, gif, record (docs/replays.md).

A bad replay file, a bad option or a configuration that does not load gets one line
``necro-replay: <message>`` on stderr and exit status 2, never a traceback; a replay that `verify`
refuses prints ``FAILED <message>`` and exits with status 1.
"""
from __future__ import annotations

import argparse
import sys

from .format import ReplayError, read_replay


def _shown(value) -> str:
    """A header config value for the header line: an inline board (a dict) by its name only."""
    return f"<inline board {str(value.get('name'))!r:.40}>" if isinstance(value, dict) else str(value)


def _show(args):
    from .format import log_lines_of

    rep = read_replay(args.file)
    h = rep.header
    sides = h["names"].get("gangs") or h["names"].get("sides") or []  # Necromunda's gangs, another game's sides
    cfg = ", ".join(f"{k}={_shown(v)}" for k, v in h["config"].items() if v is not None) or "defaults"
    print(f"# necro_env replay v{h['version']} (env {h['env_version']}, ruleset {h['ruleset'].get('name')}), "
          f"seed {h['seed']}, {cfg}")
    print(f"# {'gangs' if 'gangs' in h['names'] else 'sides'}: {', '.join(map(str, sides))}")
    for line in log_lines_of(h, rep.reset["events"], rep.reset["round"]):
        print(line)
    for s in rep.steps:
        if args.steps:
            who = sides[s["gang"]] if 0 <= s["gang"] < len(sides) else f"gang_{s['gang']}"
            print(f"-- step {s['i']}: {who} decides (action {s['action']})")
        for line in log_lines_of(h, s["events"], s["round"]):
            print(line)
    e = rep.end
    if not e["done"]:
        print(f"# unfinished game: {e['steps']} steps recorded" + (" (ended by an illegal action)" if e["illegal"] else ""))
    return 0


def _verify(args):
    from .verify import verify

    bad = 0
    for f in args.files:
        try:
            res = verify(f)
        except ReplayError as exc:
            print(f"FAILED {exc}", file=sys.stderr)
            bad += 1
            continue
        if not args.quiet:
            print(res.summary())
            for n in res.notes:
                print("  " + n)
    if len(args.files) > 1:
        print(f"{len(args.files) - bad}/{len(args.files)} replays verified")
    return 1 if bad else 0


def _html(args):
    from .html import write_html

    out = write_html(args.file, args.output, cell=args.cell, max_steps=args.max_steps)
    print(f"wrote {out}")
    return 0


def _gif(args):
    from .gif import write_gif

    out = write_gif(args.file, args.output, cell=args.cell, ms=args.ms, every=args.every, max_steps=args.max_steps)
    print(f"wrote {out}")
    return 0


def _output_names(pattern: str, seeds) -> list:
    """The file of each game: ``pattern`` with {seed} and {game} filled in (checked before any game is
    played, so a bad pattern writes nothing)."""
    if len(seeds) == 1 and "{" not in pattern:
        return [pattern]
    try:
        names = [pattern.format(seed=seed, game=k) for k, seed in enumerate(seeds)]
    except KeyError as exc:
        raise ValueError(f"-o/--output: unknown field {{{exc.args[0]}}} in {pattern!r}; allowed: {{seed}} and "
                         f"{{game}}") from None
    except (IndexError, ValueError) as exc:
        raise ValueError(f"-o/--output: {pattern!r} is not a file name pattern ({exc}); allowed: {{seed}} and "
                         f"{{game}}, '{{{{' and '}}}}' for braces") from None
    if len(set(names)) < len(names):
        raise ValueError(f"-o/--output: {pattern!r} names one file for {len(seeds)} games; put {{seed}} or {{game}} "
                         f"in it")
    return names


def _record(args):
    from .record import POLICIES, record

    # `is not None`: an option given as 0 must reach the game (or its check), not be dropped as unset
    opts = {k: getattr(args, k) for k in ("scenario", "board", "num_gangs", "round_limit")
            if getattr(args, k) is not None}
    seeds = [args.seed + k for k in range(args.games)]
    for seed, out in zip(seeds, _output_names(args.output, seeds)):
        record(out, seed=seed, policy=POLICIES[args.policy], max_steps=args.max_steps, **opts)
        print(f"wrote {out}")
    return 0


def int_in(lo: int, hi: int | None = None, what: str = ""):
    """An argparse type: an integer from ``lo`` to ``hi`` (no upper limit when None); a refusal names
    the value and the range."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < lo or (hi is not None and value > hi):
            span = f"from {lo} to {hi}" if hi is not None else f"of at least {lo}"
            raise argparse.ArgumentTypeError(f"got {text!r}; allowed: an integer {span}{what}")
        return value
    return parse


class _Parser(argparse.ArgumentParser):
    """A refused option is one line, ``necro-replay: <command>: <message>`` (exit status 2), like
    every other refusal of the command; --help still prints the usage."""

    def error(self, message):
        cmd = self.prog.split(" ", 1)[1:]
        self.exit(2, f"necro-replay: {cmd[0] + ': ' if cmd else ''}{message}\n")


# Limits of the numeric options, with their reasons: a cell of more than 64 pixels makes a 24x24 board
# over 1,500 pixels wide; a GIF stores frame times in hundredths of a second (under 10 ms is 0, which
# viewers replace by their own default); 99 rounds and 2 to 4 gangs are what a scenario file allows.
CELL = int_in(1, 64, " (pixels per board cell)")
STEPS = int_in(1)


def build_parser():
    p = _Parser(prog="necro-replay", description="necro_env replay files (docs/replays.md)")
    sub = p.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("verify", help="re-simulate and confirm every event bit for bit")
    v.add_argument("files", nargs="+", metavar="FILE")
    v.add_argument("-q", "--quiet", action="store_true", help="print failures and the total only")
    v.set_defaults(fn=_verify)
    s = sub.add_parser("show", help="print the battle log")
    s.add_argument("file", metavar="FILE")
    s.add_argument("--steps", action="store_true", help="mark every decision (step number, gang, action index)")
    s.set_defaults(fn=_show)
    h = sub.add_parser("html", help="write a self-contained HTML viewer")
    h.add_argument("file", metavar="FILE")
    h.add_argument("-o", "--output", default="game.html")
    h.add_argument("--cell", type=CELL, default=24, help="pixels per board cell, 1 to 64 (default 24)")
    h.add_argument("--max-steps", type=STEPS, default=None, help="stop after N steps (N >= 1)")
    h.set_defaults(fn=_html)
    g = sub.add_parser("gif", help="write an animated GIF")
    g.add_argument("file", metavar="FILE")
    g.add_argument("-o", "--output", default="game.gif")
    g.add_argument("--cell", type=CELL, default=12, help="pixels per board cell, 1 to 64 (default 12)")
    g.add_argument("--ms", type=int_in(10, 60000, " (milliseconds per frame)"), default=250,
                   help="milliseconds per frame, 10 to 60000 (default 250)")
    g.add_argument("--every", type=int_in(1, what=" (keep every N-th step)"), default=1,
                   help="keep every N-th step, N >= 1 (default 1)")
    g.add_argument("--max-steps", type=STEPS, default=None, help="stop after N steps (N >= 1)")
    g.set_defaults(fn=_gif)
    r = sub.add_parser("record", help="play uniformly random games and record them")
    r.add_argument("-o", "--output", default="replays/game_{seed}.jsonl",
                   help="file name; {seed} and {game} are filled in (default replays/game_{seed}.jsonl)")
    r.add_argument("--seed", type=int_in(0), default=0)
    r.add_argument("--games", type=int_in(1), default=1)
    r.add_argument("--scenario")
    r.add_argument("--board")
    r.add_argument("--num-gangs", type=int_in(2, 4, " (gangs)"))
    r.add_argument("--round-limit", type=int_in(1, 99, " (rounds)"))
    r.add_argument("--max-steps", type=STEPS, default=None, help="stop each game after N decisions (N >= 1)")
    r.add_argument("--policy", choices=("random", "closing"), default="random",
                   help="random: uniformly random legal actions; closing: a simple demo player that seeks combat")
    r.set_defaults(fn=_record)
    return p


def main(argv=None) -> int:
    """The entry point of every subcommand; returns the exit status (0 ok, 1 a replay verify refuses,
    2 a refused input: a corrupt replay, an option, a configuration that does not load)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help (0), or a refused option already printed in one line (2)
        return exc.code
    try:
        return args.fn(args)
    except BrokenPipeError:  # `necro-replay show FILE | head`
        return 0
    except (ReplayError, ValueError) as exc:  # ValueError: ConfigError and the checks of game options
        print(f"necro-replay: {exc}", file=sys.stderr)
    except OSError as exc:  # an output file that cannot be written
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"necro-replay: {where}{exc.strerror or exc}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
