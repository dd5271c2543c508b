import unittest

from solution import total


class TestVisible(unittest.TestCase):
    def test_small(self):
        self.assertEqual(total([1, 2]), 3)
