"""necro_env on Ray (issue 55; docs/distributed.md): RLlib training, paired evaluation on Ray actors and
Tune sweeps, for every game of the registry (``necro_env.rulesets.get``), with the same env, agents and
configs as the single-machine commands.

Ray is an optional extra (``pip install -e ".[distributed]"``): :func:`require_ray` turns its absence into
one line naming the extra, and :func:`connect` starts a local Ray on this machine's cores or attaches to a
cluster (``--address`` or ``RAY_ADDRESS``), with its authentication token when the cluster uses one.
"""
from __future__ import annotations

import os
import re

EXTRA = 'pip install -e ".[distributed]"'
# host:port, ray://host:port, or "auto" (the cluster this machine is a node of): what ray.init takes
_ADDRESS = re.compile(r"^(auto|local|(ray://)?[A-Za-z0-9_.\-\[\]:]+:\d{1,5})$")


class MissingExtra(ImportError):
    """Ray (or RLlib, Tune) is not installed: the message is the one line a user sees."""


def require_ray(what: str = "ray"):
    """Import ``what`` (``ray``, ``ray.rllib``, ``ray.tune``); MissingExtra naming the extra when absent,
    so a user without it gets one line instead of an ImportError trace."""
    import importlib

    try:
        return importlib.import_module(what)
    except ImportError:
        raise MissingExtra(f"{what} is not installed: the distributed backend needs the extra ({EXTRA})") from None


def check_address(address: str | None) -> str | None:
    """``address`` (or $RAY_ADDRESS when None) checked for ray.init's forms; ValueError naming it."""
    address = address if address is not None else os.environ.get("RAY_ADDRESS") or None
    if address is not None and not _ADDRESS.match(address):
        raise ValueError(f"Ray address {address!r} is not host:port, ray://host:port or 'auto' "
                         f"(a cluster's head, e.g. 10.0.0.5:6379)")
    return address


def use_token(token_file: str | None) -> None:
    """Token authentication (Ray 2.60's clusters started with RAY_AUTH_MODE=token): the token from
    ``token_file``, else $RAY_AUTH_TOKEN / $RAY_AUTH_TOKEN_PATH / ~/.ray/auth_token as Ray reads them."""
    if token_file is None:
        return
    if not os.path.isfile(token_file):
        raise ValueError(f"--auth-token-file {token_file!r}: no such file (the cluster's token, as "
                         f"`ray get-auth-token` prints it)")
    os.environ["RAY_AUTH_MODE"] = "token"
    os.environ["RAY_AUTH_TOKEN_PATH"] = os.path.abspath(token_file)


def connect(address: str | None = None, num_cpus: int | None = None, token_file: str | None = None,
            object_store_mb: int = 200):
    """Start Ray once per process: attach to ``address`` (or $RAY_ADDRESS), else a local Ray with this
    machine's cores (``num_cpus``: fewer). A refused or unreachable address is one ValueError line."""
    ray = require_ray("ray")
    address = check_address(address)
    use_token(token_file)
    if ray.is_initialized():
        return ray
    if address in (None, "local"):
        ray.init(num_cpus=num_cpus or os.cpu_count(), include_dashboard=False, log_to_driver=False,
                 object_store_memory=object_store_mb * 1024 * 1024, configure_logging=False)
        return ray
    try:
        ray.init(address=address, log_to_driver=False, configure_logging=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"cannot attach to the Ray cluster at {address!r}: {first[:200]}") from None
    return ray
