// Module AAC: see ../shared/DESIGN.md for its layer.
