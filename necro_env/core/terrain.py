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

# Levels (docs/rules.md §1.2 "Grid model with levels"). Each cell has ONE floor height in whole
# inches (BoardSpec.heights, int8 [H, W], 0 = ground, 0..MAX_HEIGHT); there are no stacked walkable
# levels above one another. Two orthogonal or diagonal neighbours whose heights differ by 1" or more
# are joined by a vertical surface (climbed at 2" per 1", or jumped down). BoardSpec.features is a
# bitmask per cell (int8 [H, W]) of the FEAT_* flags below.
MAX_HEIGHT = 15
FEAT_LADDER = 1  # a ladder: a step to/from this cell climbs at 1" per 1" (no doubling)
FEAT_STAIRS = 2  # stairs: same movement effect as a ladder
FEAT_RAILING = 4  # a railing along this cell's edges where the floor drops: +1 to the falling test
