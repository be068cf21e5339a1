// Module Capture: see ../shared/DESIGN.md for its layer.
