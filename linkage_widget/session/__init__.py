"""The headless session: every trait, validator and policy of the widget, no ipywidgets."""
