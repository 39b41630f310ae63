package org.example.csv;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

public class CsvStats {
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: CsvStats FILE.csv");
            System.exit(2);
        }
        try (Reader in = Files.newBufferedReader(Path.of(args[0]))) {
            CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build();
            List<CSVRecord> rows = format.parse(in).getRecords();
            for (String column : rows.get(0).getParser().getHeaderNames()) {
                DoubleSummaryStatistics stats = new DoubleSummaryStatistics();
                for (CSVRecord row : rows) {
                    try {
                        stats.accept(Double.parseDouble(row.get(column)));
                    } catch (NumberFormatException e) {
                        // a text column
                    }
                }
                if (stats.getCount() > 0) System.out.printf("%s: n=%d mean=%.2f%n", column, stats.getCount(), stats.getAverage());
            }
        }
    }
}
