# Type stubs of the native module; tests/test_core_stubs.py checks they match the module.
__version__: str
TOP: int
RIGHT: int
BOTTOM: int
LEFT: int

def rotate_sides(sides: int, rotated: bool) -> int: ...
def valid_sides(sides: int) -> bool: ...
