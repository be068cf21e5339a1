// Module Containers: see ../shared/DESIGN.md for its layer.
