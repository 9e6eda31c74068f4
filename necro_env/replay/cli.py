"""``necro-replay``: verify, show, html, gif, record (docs/replays.md).

A bad replay file gets one line naming the file, the line and the field (exit status 2), never a
traceback; a replay whose re-simulation differs exits with status 1.
"""
from __future__ import annotations

import argparse
import sys

from .format import ReplayError, read_replay


def _show(args):
    from ..render.battlelog import LogNames, log_lines

    rep = read_replay(args.file)
    h = rep.header
    names = LogNames.from_dict(h["names"])
    cfg = ", ".join(f"{k}={v}" for k, v in h["config"].items() if v is not None) or "defaults"
    print(f"# necro_env replay v{h['version']} (env {h['env_version']}, ruleset {h['ruleset'].get('name')}), "
          f"seed {h['seed']}, {cfg}")
    print(f"# gangs: {', '.join(names.gangs)}")
    for line in log_lines(rep.reset["events"], names, rep.reset["round"]):
        print(line)
    for s in rep.steps:
        if args.steps:
            print(f"-- step {s['i']}: {names.gang(s['gang'])} decides (action {s['action']})")
        for line in log_lines(s["events"], names, s["round"]):
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


def _record(args):
    from .record import POLICIES, record

    opts = {}
    if args.scenario:
        opts["scenario"] = args.scenario
    if args.board:
        opts["board"] = args.board
    if args.num_gangs:
        opts["num_gangs"] = args.num_gangs
    if args.round_limit:
        opts["round_limit"] = args.round_limit
    for k in range(args.games):
        seed = args.seed + k
        out = args.output.format(seed=seed, game=k) if args.games > 1 or "{" in args.output else args.output
        record(out, seed=seed, policy=POLICIES[args.policy], max_steps=args.max_steps, **opts)
        print(f"wrote {out}")
    return 0


def build_parser():
    p = argparse.ArgumentParser(prog="necro-replay", description="necro_env replay files (docs/replays.md)")
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
    h.add_argument("--cell", type=int, default=24, help="pixels per board cell (default 24)")
    h.add_argument("--max-steps", type=int, default=None)
    h.set_defaults(fn=_html)
    g = sub.add_parser("gif", help="write an animated GIF")
    g.add_argument("file", metavar="FILE")
    g.add_argument("-o", "--output", default="game.gif")
    g.add_argument("--cell", type=int, default=12, help="pixels per board cell (default 12)")
    g.add_argument("--ms", type=int, default=250, help="milliseconds per frame (default 250)")
    g.add_argument("--every", type=int, default=1, help="keep every N-th step (default 1)")
    g.add_argument("--max-steps", type=int, default=None)
    g.set_defaults(fn=_gif)
    r = sub.add_parser("record", help="play uniformly random games and record them")
    r.add_argument("-o", "--output", default="replays/game_{seed}.jsonl",
                   help="file name; {seed} and {game} are filled in (default replays/game_{seed}.jsonl)")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--games", type=int, default=1)
    r.add_argument("--scenario")
    r.add_argument("--board")
    r.add_argument("--num-gangs", type=int)
    r.add_argument("--round-limit", type=int)
    r.add_argument("--max-steps", type=int, default=None)
    r.add_argument("--policy", choices=("random", "closing"), default="random",
                   help="random: uniformly random legal actions; closing: a simple demo player that seeks combat")
    r.set_defaults(fn=_record)
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.fn(args)
    except ReplayError as exc:
        print(f"necro-replay: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `necro-replay show FILE | head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
