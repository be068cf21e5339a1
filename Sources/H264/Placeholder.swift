// Module H264: see ../shared/DESIGN.md for its layer.
