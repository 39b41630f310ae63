package org.example.csv;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CsvStatsTest {
    @Test
    public void parsesNumbers() {
        assertEquals(2.5, Double.parseDouble("2.5"), 0.0);
    }
}
