import unittest

from main import average


class AverageTest(unittest.TestCase):
    def test_whole_numbers(self):
        self.assertEqual(average([1, 2, 3]), 2)

    def test_fractions(self):
        self.assertAlmostEqual(average([1, 2]), 1.5)

    def test_negative_numbers(self):
        self.assertEqual(average([-4, 4, 3]), 1)

    def test_empty_list(self):
        self.assertEqual(average([]), 0)


if __name__ == "__main__":
    unittest.main()
