"""The pipeline: harvest, phase 1 extract, phase 2 consolidate, and the model boundary."""
