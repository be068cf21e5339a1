// Module HEVC: see ../shared/DESIGN.md for its layer.
