import unittest

from solution import total


class TestHidden(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(total([]), 0)

    def test_positive(self):
        self.assertEqual(total([1, 2, 3]), 6)

    def test_negative(self):
        self.assertEqual(total([5, -2]), 3)
