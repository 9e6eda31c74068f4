"""A ConfigError survives pickling (2026-12-02): a sweep trial or a Ray worker that refuses a config sends the
error to the driver, which must show the same one-line message, not ``TypeError: ConfigError.__init__() missing
3 required positional arguments``."""
import pickle

from necro_env.config.errors import ConfigError


def test_config_error_pickles_with_its_message_and_parts():
    err = ConfigError("sweep.yaml", "overrides.opponent", "gunline", "game firefight allows charger, holder, random")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is ConfigError and str(back) == str(err)
    assert (back.file, back.field, back.value, back.allowed) == (err.file, err.field, err.value, err.allowed)
