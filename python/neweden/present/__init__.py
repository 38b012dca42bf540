"""The report shown: the text table and the SVG picture."""
