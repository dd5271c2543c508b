"""Python basics: write average() so that the check passes."""


def average(numbers):
    """The arithmetic mean of a list of numbers; 0 for an empty list."""
    return None
