"""The game format `new-eden/game@1`: its types, decoding, the cross-field checks, the JSON
Schema, problems and the box's names."""
