// GZIP Compression Tool: streaming DEFLATE/GZIP compression and decompression with zlib,
// original file name and timestamp in the GZIP header, CRC-32 verification, progress, batch mode
// and a JSON operation log.

#include <zlib.h>

#include <sys/stat.h>
#include <utime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct GzError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Options {
    int level = 6;
    size_t buffer = 64 * 1024;
    bool verify = false;
    bool keep = true;
    bool progress = true;
};

struct Result {
    std::string operation, input, output;
    uint64_t originalSize = 0, compressedSize = 0;
    double seconds = 0;
    uint32_t crc = 0;
    std::string status = "ok";
    double ratio() const { return originalSize ? 100.0 * (1.0 - double(compressedSize) / double(originalSize)) : 0.0; }
    double mbps() const { return seconds > 0 ? originalSize / 1048576.0 / seconds : 0.0; }
};

/** Percentage, speed and ETA, printed at every 25% for inputs of 1 MiB or more. */
class Progress {
public:
    Progress(const char* label, uint64_t total, bool enabled) : label_(label), total_(total), enabled_(enabled && total >= (1u << 20)) {}
    void update(uint64_t done) {
        if (!enabled_) return;
        int pct = static_cast<int>(100.0 * done / total_);
        while (pct >= next_ && next_ <= 100) {
            double secs = std::chrono::duration<double>(Clock::now() - start_).count();
            double speed = secs > 0 ? done / 1048576.0 / secs : 0;
            double eta = speed > 0 ? (total_ - done) / 1048576.0 / speed : 0;
            std::cout << "    " << label_ << " " << std::setw(3) << next_ << "%  " << std::fixed << std::setprecision(1) << speed
                      << " MB/s  ETA " << std::setprecision(2) << eta << " s\n";
            next_ += 25;
        }
    }

private:
    const char* label_;
    uint64_t total_;
    bool enabled_;
    int next_ = 25;
    Clock::time_point start_ = Clock::now();
};

std::string zerr(int code, const z_stream& s) {
    return std::string(s.msg ? s.msg : zError(code));
}

std::ifstream openIn(const fs::path& p) {
    std::error_code ec;
    if (!fs::exists(p, ec)) throw GzError("file not found: " + p.string());
    std::ifstream in(p, std::ios::binary);
    if (!in) throw GzError("cannot read (permission denied?): " + p.string());
    return in;
}

std::ofstream openOut(const fs::path& p) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    if (!out) throw GzError("cannot write (permission denied?): " + p.string());
    return out;
}

void writeAll(std::ofstream& out, const unsigned char* data, size_t n, const fs::path& p) {
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(n));
    if (!out) throw GzError("write failed (disk full?): " + p.string());
}

Result compressFile(const fs::path& input, fs::path output, const Options& opt) {
    if (output.empty()) output = fs::path(input.string() + ".gz");
    auto in = openIn(input);
    struct stat st {};
    if (stat(input.c_str(), &st) != 0) throw GzError("cannot stat " + input.string());
    Result r{"compress", input.string(), output.string()};
    r.originalSize = static_cast<uint64_t>(st.st_size);
    auto t0 = Clock::now();

    z_stream zs{};
    int rc = deflateInit2(&zs, opt.level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);  // +16: GZIP wrapper
    if (rc != Z_OK) throw GzError("deflateInit2: " + zerr(rc, zs));
    std::string name = input.filename().string();
    gz_header header{};
    header.name = reinterpret_cast<Bytef*>(name.data());
    header.time = static_cast<uLong>(st.st_mtime);
    header.os = 3;  // Unix
    deflateSetHeader(&zs, &header);

    auto out = openOut(output);
    std::vector<unsigned char> inBuf(opt.buffer), outBuf(opt.buffer);
    Progress progress("compress", r.originalSize, opt.progress);
    uint64_t read = 0;
    uLong crc = crc32(0L, Z_NULL, 0);
    int flush = Z_NO_FLUSH;
    try {
        do {
            in.read(reinterpret_cast<char*>(inBuf.data()), static_cast<std::streamsize>(inBuf.size()));
            zs.avail_in = static_cast<uInt>(in.gcount());
            zs.next_in = inBuf.data();
            crc = crc32(crc, inBuf.data(), zs.avail_in);
            read += zs.avail_in;
            flush = in.eof() ? Z_FINISH : Z_NO_FLUSH;
            do {
                zs.avail_out = static_cast<uInt>(outBuf.size());
                zs.next_out = outBuf.data();
                rc = deflate(&zs, flush);
                if (rc == Z_STREAM_ERROR) throw GzError("deflate: " + zerr(rc, zs));
                writeAll(out, outBuf.data(), outBuf.size() - zs.avail_out, output);
            } while (zs.avail_out == 0);
            progress.update(read);
        } while (flush != Z_FINISH);
    } catch (...) {
        deflateEnd(&zs);
        throw;
    }
    deflateEnd(&zs);
    out.close();
    r.compressedSize = fs::file_size(output);
    r.crc = static_cast<uint32_t>(crc);
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return r;
}

/** Reads the CRC-32 and ISIZE stored in the 8-byte GZIP trailer. */
std::pair<uint32_t, uint32_t> readTrailer(const fs::path& gz) {
    std::ifstream in(gz, std::ios::binary);
    in.seekg(-8, std::ios::end);
    unsigned char t[8] = {};
    if (!in.read(reinterpret_cast<char*>(t), 8)) throw GzError("truncated file (no GZIP trailer): " + gz.string());
    auto le = [&](int o) { return uint32_t(t[o]) | uint32_t(t[o + 1]) << 8 | uint32_t(t[o + 2]) << 16 | uint32_t(t[o + 3]) << 24; };
    return {le(0), le(4)};
}

/**
 * Decompresses one GZIP member. The output name comes from the header (or the .gz name without its
 * extension); with outputDir empty it goes next to the input. The mtime in the header is restored.
 */
Result decompressFile(const fs::path& input, const fs::path& explicitOutput, const fs::path& outputDir, const Options& opt) {
    auto in = openIn(input);
    unsigned char magic[3] = {};
    in.read(reinterpret_cast<char*>(magic), 3);
    if (in.gcount() < 3 || magic[0] != 0x1f || magic[1] != 0x8b) throw GzError("not a GZIP file (bad magic bytes): " + input.string());
    if (magic[2] != 8) throw GzError("unsupported GZIP compression method " + std::to_string(magic[2]) + " (only DEFLATE = 8): " + input.string());
    in.seekg(0);

    Result r{"decompress", input.string(), ""};
    r.compressedSize = fs::file_size(input);
    auto t0 = Clock::now();
    z_stream zs{};
    int rc = inflateInit2(&zs, 15 + 16);  // GZIP only
    if (rc != Z_OK) throw GzError("inflateInit2: " + zerr(rc, zs));
    gz_header header{};
    std::vector<char> name(1024, 0);
    header.name = reinterpret_cast<Bytef*>(name.data());
    header.name_max = static_cast<uInt>(name.size() - 1);
    inflateGetHeader(&zs, &header);

    fs::path partial = (outputDir.empty() ? input.parent_path() : outputDir) / (input.filename().string() + ".part");
    auto out = openOut(partial);
    std::vector<unsigned char> inBuf(opt.buffer), outBuf(opt.buffer);
    Progress progress("decompress", r.compressedSize, opt.progress);
    uint64_t consumed = 0, written = 0;
    uLong crc = crc32(0L, Z_NULL, 0);
    bool trailing = false;
    try {
        rc = Z_OK;
        while (rc != Z_STREAM_END) {
            in.read(reinterpret_cast<char*>(inBuf.data()), static_cast<std::streamsize>(inBuf.size()));
            zs.avail_in = static_cast<uInt>(in.gcount());
            if (zs.avail_in == 0) throw GzError("truncated file (compressed data ends before the GZIP trailer): " + input.string());
            zs.next_in = inBuf.data();
            consumed += zs.avail_in;
            do {
                zs.avail_out = static_cast<uInt>(outBuf.size());
                zs.next_out = outBuf.data();
                rc = inflate(&zs, Z_NO_FLUSH);
                if (rc == Z_DATA_ERROR) {
                    std::string msg = zerr(rc, zs);
                    if (msg.find("incorrect data check") != std::string::npos) throw GzError("CRC mismatch: " + input.string() + " is corrupted (" + msg + ")");
                    if (msg.find("unknown header flags") != std::string::npos) throw GzError("unsupported GZIP extension: " + msg);
                    throw GzError("corrupted GZIP data in " + input.string() + ": " + msg);
                }
                if (rc == Z_MEM_ERROR || rc == Z_NEED_DICT || rc == Z_STREAM_ERROR) throw GzError("inflate: " + zerr(rc, zs));
                size_t n = outBuf.size() - zs.avail_out;
                crc = crc32(crc, outBuf.data(), static_cast<uInt>(n));
                writeAll(out, outBuf.data(), n, partial);
                written += n;
            } while (zs.avail_out == 0 && rc != Z_STREAM_END);
            progress.update(consumed - zs.avail_in);
        }
        trailing = zs.avail_in > 0 || in.peek() != std::char_traits<char>::eof();
    } catch (...) {
        inflateEnd(&zs);
        out.close();
        fs::remove(partial);
        throw;
    }
    inflateEnd(&zs);
    out.close();

    std::string stored = header.done == 1 && name[0] ? fs::path(name.data()).filename().string() : "";
    fs::path target = explicitOutput;
    if (target.empty()) {
        std::string base = !stored.empty() ? stored : (input.extension() == ".gz" ? input.stem().string() : input.filename().string() + ".out");
        target = (outputDir.empty() ? input.parent_path() : outputDir) / base;
    }
    fs::rename(partial, target);
    if (header.done == 1 && header.time != 0) {
        struct utimbuf times {static_cast<time_t>(header.time), static_cast<time_t>(header.time)};
        utime(target.c_str(), &times);
    }
    r.output = target.string();
    r.originalSize = written;
    r.crc = static_cast<uint32_t>(crc);
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (trailing) r.status = "ok (ignored data after the first GZIP member)";
    return r;
}

/** --verify: decompress in memory and compare the CRC-32 of the data with the trailer and the original. */
std::string verify(const Result& compressed, const Options& opt) {
    auto [trailerCrc, isize] = readTrailer(compressed.output);
    fs::path tmp = fs::temp_directory_path() / ("gzverify-" + std::to_string(std::random_device{}()));
    fs::create_directories(tmp);
    Options quiet = opt;
    quiet.progress = false;
    Result back = decompressFile(compressed.output, tmp / "data", tmp, quiet);
    fs::remove_all(tmp);
    bool ok = trailerCrc == compressed.crc && back.crc == compressed.crc && isize == static_cast<uint32_t>(compressed.originalSize);
    std::ostringstream s;
    s << "CRC-32 " << std::hex << std::setw(8) << std::setfill('0') << trailerCrc << (ok ? " OK" : " MISMATCH");
    if (!ok) throw GzError("verification failed for " + compressed.output + ": " + s.str());
    return s.str();
}

std::string jsonEscape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\', out += c;
        else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else out += c;
    }
    return out;
}

void writeLog(const fs::path& file, const std::vector<Result>& results) {
    std::ofstream out(file);
    out << "{\n  \"zlib_version\": \"" << zlibVersion() << "\",\n  \"operations\": [\n";
    for (size_t i = 0; i < results.size(); ++i) {
        const auto& r = results[i];
        out << "    {\"operation\": \"" << r.operation << "\", \"input\": \"" << jsonEscape(r.input) << "\", \"output\": \"" << jsonEscape(r.output)
            << "\", \"original_size\": " << r.originalSize << ", \"compressed_size\": " << r.compressedSize << ", \"ratio_percent\": "
            << std::fixed << std::setprecision(2) << r.ratio() << ", \"seconds\": " << std::setprecision(4) << r.seconds
            << ", \"crc32\": \"" << std::hex << std::setw(8) << std::setfill('0') << r.crc << std::dec << std::setfill(' ')
            << "\", \"status\": \"" << jsonEscape(r.status) << "\"}" << (i + 1 < results.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
}

void printSummary(const Result& r) {
    std::cout << "  " << std::left << std::setw(11) << r.operation << std::setw(14) << fs::path(r.input).filename().string() << std::right
              << std::setw(11) << r.originalSize << " -> " << std::setw(10) << r.compressedSize << " bytes  " << std::fixed
              << std::setprecision(1) << std::setw(5) << r.ratio() << "% saved  " << std::setprecision(3) << r.seconds << " s  "
              << std::setprecision(1) << r.mbps() << " MB/s\n";
}

// ------------------------------------------------------------------------------------ demo

void makeSamples(const fs::path& dir) {
    std::mt19937 rng(2024);
    const char* words[] = {"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "gzip", "stream", "chunk", "deflate"};
    {
        std::ofstream t(dir / "story.txt");
        for (int i = 0; i < 90000; ++i) t << words[rng() % 12] << ((i % 14 == 13) ? ".\n" : " ");
    }
    {
        std::ofstream c(dir / "sales.csv");
        c << "date,region,product,units,price\n";
        const char* regions[] = {"north", "south", "east", "west"};
        for (int i = 0; i < 40000; ++i)
            c << "2024-" << std::setw(2) << std::setfill('0') << (1 + i % 12) << "-" << std::setw(2) << (1 + i % 28) << std::setfill(' ') << ","
              << regions[rng() % 4] << ",SKU-" << (1000 + rng() % 50) << "," << rng() % 100 << "," << (rng() % 10000) / 100.0 << "\n";
    }
    {
        std::ofstream j(dir / "events.json");
        j << "[\n";
        for (int i = 0; i < 20000; ++i)
            j << "  {\"id\": " << i << ", \"type\": \"" << (i % 3 ? "click" : "view") << "\", \"user\": \"user" << rng() % 500
              << "\", \"ok\": " << (i % 7 ? "true" : "false") << "}" << (i < 19999 ? ",\n" : "\n");
        j << "]\n";
    }
    {
        std::ofstream b(dir / "random.bin", std::ios::binary);
        std::vector<char> buf(1 << 20);
        for (auto& ch : buf) ch = static_cast<char>(rng());
        b.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    }
    std::ofstream(dir / "not_gzip.gz") << "this is plain text pretending to be gzip\n";
}

int demo(Options opt) {
    fs::path dir = fs::temp_directory_path() / ("gzip-demo-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir / "restored");
    makeSamples(dir);
    std::cout << "No input given: generated sample files in " << dir.string() << " (zlib " << zlibVersion() << ")\n\n";
    std::vector<Result> log;
    bool ok = true;

    std::cout << "Compression at level " << opt.level << " (buffer " << opt.buffer / 1024 << " KiB):\n";
    std::vector<Result> compressed;
    for (const char* name : {"story.txt", "sales.csv", "events.json", "random.bin"}) {
        Options o = opt;
        o.progress = std::string(name) == "sales.csv";  // one progress example is enough
        Result r = compressFile(dir / name, {}, o);
        r.status = verify(r, o);
        printSummary(r);
        compressed.push_back(r);
        log.push_back(r);
    }
    auto best = std::max_element(compressed.begin(), compressed.end(), [](const Result& a, const Result& b) { return a.ratio() < b.ratio(); });
    std::cout << "  best ratio: " << fs::path(best->input).filename().string() << "; random data does not compress (" << std::setprecision(1)
              << compressed.back().ratio() << "%)\n";

    std::cout << "\nLevels for story.txt:\n";
    for (int level : {1, 6, 9}) {
        Options o = opt;
        o.level = level;
        Result r = compressFile(dir / "story.txt", dir / ("story.l" + std::to_string(level) + ".gz"), o);
        std::cout << "  level " << level << ": " << r.compressedSize << " bytes (" << std::fixed << std::setprecision(1) << r.ratio() << "% saved) in "
                  << std::setprecision(3) << r.seconds << " s\n";
    }

    std::cout << "\nDecompression into restored/ (name and timestamp from the GZIP header):\n";
    for (const auto& c : compressed) {
        Result d = decompressFile(c.output, {}, dir / "restored", opt);
        bool same = d.crc == c.crc && d.originalSize == c.originalSize;
        auto mtimeOrig = fs::last_write_time(c.input), mtimeBack = fs::last_write_time(d.output);
        bool sameTime = std::chrono::duration_cast<std::chrono::seconds>(mtimeOrig - mtimeBack).count() == 0;
        d.status = same ? "integrity ok" : "MISMATCH";
        ok = ok && same && sameTime;
        std::cout << "  " << std::left << std::setw(14) << fs::path(d.output).filename().string() << std::right << std::setw(10) << d.originalSize
                  << " bytes  CRC " << std::hex << std::setw(8) << std::setfill('0') << d.crc << std::dec << std::setfill(' ')
                  << (same ? " matches" : " DIFFERS") << ", mtime " << (sameTime ? "restored" : "NOT restored") << "\n";
        log.push_back(d);
    }

    std::cout << "\nError handling:\n";
    fs::path corrupt = dir / "corrupt.txt.gz", truncated = dir / "truncated.txt.gz";
    fs::copy_file(compressed[0].output, corrupt);
    {
        std::fstream f(corrupt, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(compressed[0].compressedSize - 6));  // inside the CRC-32 trailer
        f.put('\x5a');
    }
    fs::copy_file(compressed[0].output, truncated);
    fs::resize_file(truncated, compressed[0].compressedSize / 2);
    Options quiet = opt;
    quiet.progress = false;
    for (const fs::path& bad : {corrupt, truncated, dir / "not_gzip.gz", dir / "missing.gz"}) {
        try {
            decompressFile(bad, {}, dir / "restored", quiet);
            std::cout << "  " << bad.filename().string() << ": unexpectedly decompressed\n";
            ok = false;
        } catch (const GzError& e) {
            std::cout << "  " << std::left << std::setw(17) << bad.filename().string() << std::right << " error: " << e.what() << "\n";
        }
    }

    fs::path logFile = dir / "gzip_log.json";
    writeLog(logFile, log);
    std::cout << "\nOperation log (" << log.size() << " entries) written to " << logFile.string() << "\n" << (ok ? "Demo passed." : "Demo FAILED.") << "\n";
    fs::remove_all(dir);
    return ok ? 0 : 1;
}

void usage() {
    std::cerr << "usage: gzip_tool <file> <compress|decompress> [--level 1-9] [--buffer BYTES|64K] [--verify] [--keep|--no-keep]\n"
                 "                 [--output PATH] [--log log.json]\n"
                 "       gzip_tool --batch <compress|decompress> <file>... [options]\n"
                 "       gzip_tool            (no arguments: demo on generated sample files)\n";
}

size_t parseSize(const std::string& s) {
    char* end = nullptr;
    unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    std::string unit = end ? end : "";
    if (unit == "K" || unit == "k" || unit == "KB") v *= 1024;
    else if (unit == "M" || unit == "m" || unit == "MB") v *= 1024 * 1024;
    else if (!unit.empty()) throw GzError("bad --buffer value: " + s);
    if (v < 1024 || v > (256ull << 20)) throw GzError("--buffer must be between 1K and 256M");
    return static_cast<size_t>(v);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        Options opt;
        if (argc == 1) return demo(opt);
        std::vector<std::string> positional;
        std::string output, logPath;
        bool batch = false;
        for (int i = 1; i < argc; ++i) {
            std::string a = argv[i];
            auto value = [&]() -> std::string {
                if (++i >= argc) throw GzError("missing value after " + a);
                return argv[i];
            };
            if (a == "--level") {
                opt.level = std::stoi(value());
                if (opt.level < 1 || opt.level > 9) throw GzError("--level must be 1..9");
            } else if (a == "--buffer") opt.buffer = parseSize(value());
            else if (a == "--verify") opt.verify = true;
            else if (a == "--keep") opt.keep = true;
            else if (a == "--no-keep") opt.keep = false;
            else if (a == "--batch") batch = true;
            else if (a == "--output") output = value();
            else if (a == "--log") logPath = value();
            else if (a == "--help" || a == "-h") {
                usage();
                return 0;
            } else if (a.rfind("--", 0) == 0) throw GzError("unknown option " + a);
            else positional.push_back(a);
        }
        std::string mode;
        std::vector<std::string> files;
        auto isMode = [](const std::string& s) { return s == "compress" || s == "decompress"; };
        for (const auto& p : positional) {
            if (mode.empty() && isMode(p)) mode = p;
            else files.push_back(p);
        }
        if (mode.empty() || files.empty() || (!batch && files.size() != 1)) {
            usage();
            return 2;
        }
        std::vector<Result> results;
        int failures = 0;
        for (const auto& f : files) {
            try {
                Result r = mode == "compress" ? compressFile(f, batch ? fs::path() : fs::path(output), opt)
                                              : decompressFile(f, batch ? fs::path() : fs::path(output), {}, opt);
                if (mode == "compress" && opt.verify) r.status = verify(r, opt);
                if (!opt.keep) fs::remove(f);
                printSummary(r);
                if (opt.verify) std::cout << "    verify: " << r.status << "\n";
                results.push_back(r);
            } catch (const GzError& e) {
                std::cerr << "error: " << e.what() << "\n";
                Result r{mode, f, ""};
                r.status = std::string("error: ") + e.what();
                results.push_back(r);
                ++failures;
            }
        }
        if (!logPath.empty()) {
            writeLog(logPath, results);
            std::cout << "log written to " << logPath << "\n";
        }
        return failures ? 1 : 0;
    } catch (const GzError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
}
