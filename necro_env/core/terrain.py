"""Terrain codes of the grid board (1 cell = 1 inch). Arrays are indexed [y, x]."""

TER_FLOOR = 0  # open floor
TER_WALL = 1  # solid, impassable, blocks line of sight
TER_OBSTACLE = 2  # barricade/crate up to 2" high: gives cover, crossed at extra cost, cannot end on it
TER_DOOR = 3  # a door cell; open/closed/locked state lives in the game state

DOOR_CLOSED = 0
DOOR_OPEN = 1
DOOR_LOCKED = 2  # closed and locked
DOOR_DESTROYED = 3  # removed (counts as open)

# Eight facings, clockwise from north (y grows downwards on the map).
FACING_DX = (0, 1, 1, 1, 0, -1, -1, -1)
FACING_DY = (-1, -1, 0, 1, 1, 1, 0, -1)
FACING_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
