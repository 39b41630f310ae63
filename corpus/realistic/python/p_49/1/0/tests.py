import unittest
from datetime import datetime

from cron import next_runs


class NextRunsTest(unittest.TestCase):
    def test_quarter_hours(self):
        runs = next_runs("*/15 * * * *", datetime(2024, 1, 1, 8, 0), 2)
        self.assertEqual([r.minute for r in runs], [15, 30])


if __name__ == "__main__":
    unittest.main()
