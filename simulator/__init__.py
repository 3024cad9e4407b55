"""hooksim: replay scripted agent sessions against real hook processes in virtual time."""
