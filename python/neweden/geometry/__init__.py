"""The grid: the sides' table, the packer, the one door to the native core, and its pure-Python
twin."""
