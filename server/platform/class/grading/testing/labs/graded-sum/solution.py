def total(numbers):
    """The sum of a list of numbers."""
    return 0
