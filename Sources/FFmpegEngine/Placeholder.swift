// Module FFmpegEngine: see ../shared/DESIGN.md for its layer.
