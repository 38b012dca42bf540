"""The scoring rules of RULES §4 over the geometric figures: requirements and stars,
epiphanies, the Military points with the D5 majority, and the ranking."""
