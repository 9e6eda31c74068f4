"""The window of ``render_mode="human"`` for any game: it shows the frames its env draws (tkinter).

Generic (a game's own drawing is its ruleset's ``render_rgb`` / ``render_image``); it was the tail of the
Necromunda image renderer until 2026-12-02, when that moved to ``necro_env/rulesets/necromunda/rgb.py``.
"""
from __future__ import annotations

from PIL import Image


class HumanWindow:
    """A window showing rendered frames (``render_mode="human"``); tkinter, needs a display."""

    def __init__(self, title="necro_env"):
        import os
        import sys

        if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            raise RuntimeError("render_mode='human' needs a display (DISPLAY is not set); "
                               "use render_mode='rgb_array' or 'ansi' on a headless machine")
        try:
            import tkinter as tk
            from PIL import ImageTk
        except ImportError as exc:  # pragma: no cover - depends on the Python build
            raise RuntimeError(f"render_mode='human' needs tkinter and Pillow's ImageTk: {exc}") from None
        self._tk, self._imagetk = tk, ImageTk
        self.root = tk.Tk()
        self.root.title(title)
        self.label = tk.Label(self.root)
        self.label.pack()
        self._photo = None

    def show(self, image: Image.Image):
        self._photo = self._imagetk.PhotoImage(image)
        self.label.configure(image=self._photo)
        self.root.update_idletasks()
        self.root.update()

    def close(self):
        try:
            self.root.destroy()
        except Exception:
            pass
