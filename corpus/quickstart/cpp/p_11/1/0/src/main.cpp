// AES-256 File Encryption Tool: AES-256-CBC with PBKDF2-HMAC-SHA256 key derivation and an
// encrypt-then-MAC HMAC-SHA256 tag, so tampering and wrong passwords are detected before decrypting.
//
// File format (all integers big-endian):
//   magic "AESCBC01" (8) | PBKDF2 iterations (4) | salt (16) | IV (16) | ciphertext | HMAC-SHA256 (32)
// The HMAC covers everything before it. PBKDF2 yields 64 bytes: 32 for AES, 32 for the HMAC.

#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'A', 'E', 'S', 'C', 'B', 'C', '0', '1'};
constexpr uint32_t kIterations = 200000;
constexpr size_t kSaltLen = 16, kIvLen = 16, kTagLen = 32, kKeyLen = 32;
constexpr size_t kHeaderLen = sizeof(kMagic) + 4 + kSaltLen + kIvLen;
constexpr size_t kChunk = 64 * 1024;

struct ToolError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string opensslError(const std::string& what) {
    unsigned long code = ERR_get_error();
    char buf[256] = "unknown error";
    if (code) ERR_error_string_n(code, buf, sizeof buf);
    return what + ": " + buf;
}

struct Keys {
    std::array<unsigned char, kKeyLen> enc{};
    std::array<unsigned char, kKeyLen> mac{};
    ~Keys() {
        OPENSSL_cleanse(enc.data(), enc.size());
        OPENSSL_cleanse(mac.data(), mac.size());
    }
};

void deriveKeys(const std::string& password, const unsigned char* salt, uint32_t iterations, Keys& keys) {
    unsigned char out[2 * kKeyLen];
    if (PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()), salt, kSaltLen,
                          static_cast<int>(iterations), EVP_sha256(), sizeof out, out) != 1)
        throw ToolError(opensslError("PBKDF2 failed"));
    std::memcpy(keys.enc.data(), out, kKeyLen);
    std::memcpy(keys.mac.data(), out + kKeyLen, kKeyLen);
    OPENSSL_cleanse(out, sizeof out);
}

/** HMAC-SHA256 through the OpenSSL 3 EVP_MAC interface. */
class Hmac {
public:
    explicit Hmac(const std::array<unsigned char, kKeyLen>& key) {
        mac_ = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
        ctx_ = mac_ ? EVP_MAC_CTX_new(mac_) : nullptr;
        char digest[] = "SHA256";
        OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0), OSSL_PARAM_construct_end()};
        if (!ctx_ || EVP_MAC_init(ctx_, key.data(), key.size(), params) != 1) throw ToolError(opensslError("HMAC init failed"));
    }
    ~Hmac() {
        EVP_MAC_CTX_free(ctx_);
        EVP_MAC_free(mac_);
    }
    Hmac(const Hmac&) = delete;
    Hmac& operator=(const Hmac&) = delete;
    void update(const unsigned char* data, size_t len) {
        if (EVP_MAC_update(ctx_, data, len) != 1) throw ToolError(opensslError("HMAC update failed"));
    }
    std::array<unsigned char, kTagLen> final() {
        std::array<unsigned char, kTagLen> tag{};
        size_t len = 0;
        if (EVP_MAC_final(ctx_, tag.data(), &len, tag.size()) != 1) throw ToolError(opensslError("HMAC final failed"));
        return tag;
    }

private:
    EVP_MAC* mac_ = nullptr;
    EVP_MAC_CTX* ctx_ = nullptr;
};

using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

bool g_showProgress = true;

/** Prints size, percentage and throughput at every 25% for files of 1 MiB or more. */
class Progress {
public:
    Progress(std::string label, uint64_t total) : label_(std::move(label)), total_(total), start_(std::chrono::steady_clock::now()) {}
    void advance(uint64_t bytes) {
        done_ += bytes;
        if (!g_showProgress || total_ < (1u << 20)) return;
        int pct = static_cast<int>(100.0 * done_ / total_);
        while (pct >= nextMark_ && nextMark_ <= 100) {
            double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
            double mbps = secs > 0 ? done_ / 1048576.0 / secs : 0.0;
            std::cout << "    " << label_ << " " << std::setw(3) << nextMark_ << "%  " << std::fixed << std::setprecision(2)
                      << done_ / 1048576.0 << "/" << total_ / 1048576.0 << " MiB  " << std::setprecision(1) << mbps << " MiB/s\n";
            nextMark_ += 25;
        }
    }

private:
    std::string label_;
    uint64_t total_, done_ = 0;
    int nextMark_ = 25;
    std::chrono::steady_clock::time_point start_;
};

std::ifstream openInput(const fs::path& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw ToolError("file not found: " + path.string());
    if (fs::is_directory(path, ec)) throw ToolError(path.string() + " is a directory (use --recursive)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ToolError("permission denied or unreadable: " + path.string());
    return in;
}

std::ofstream openOutput(const fs::path& path) {
    if (path.has_parent_path()) fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw ToolError("cannot write (permission denied?): " + path.string());
    return out;
}

void encryptFile(const fs::path& input, const fs::path& output, const std::string& password) {
    auto in = openInput(input);
    uint64_t size = fs::file_size(input);
    unsigned char salt[kSaltLen], iv[kIvLen];
    if (RAND_bytes(salt, kSaltLen) != 1 || RAND_bytes(iv, kIvLen) != 1) throw ToolError(opensslError("RAND_bytes failed"));
    Keys keys;
    deriveKeys(password, salt, kIterations, keys);

    unsigned char header[kHeaderLen];
    std::memcpy(header, kMagic, sizeof kMagic);
    for (int i = 0; i < 4; ++i) header[8 + i] = static_cast<unsigned char>(kIterations >> (24 - 8 * i));
    std::memcpy(header + 12, salt, kSaltLen);
    std::memcpy(header + 12 + kSaltLen, iv, kIvLen);

    auto out = openOutput(output);
    Hmac mac(keys.mac);
    out.write(reinterpret_cast<char*>(header), kHeaderLen);
    mac.update(header, kHeaderLen);

    CipherCtx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_cbc(), nullptr, keys.enc.data(), iv) != 1)
        throw ToolError(opensslError("cipher init failed"));
    std::vector<unsigned char> buf(kChunk), enc(kChunk + EVP_MAX_BLOCK_LENGTH);
    Progress progress("encrypt", size);
    int len = 0;
    while (in) {
        in.read(reinterpret_cast<char*>(buf.data()), buf.size());
        std::streamsize n = in.gcount();
        if (n <= 0) break;
        if (EVP_EncryptUpdate(ctx.get(), enc.data(), &len, buf.data(), static_cast<int>(n)) != 1) throw ToolError(opensslError("encrypt failed"));
        out.write(reinterpret_cast<char*>(enc.data()), len);
        mac.update(enc.data(), len);
        progress.advance(n);
    }
    if (EVP_EncryptFinal_ex(ctx.get(), enc.data(), &len) != 1) throw ToolError(opensslError("encrypt final failed"));
    out.write(reinterpret_cast<char*>(enc.data()), len);
    mac.update(enc.data(), len);
    auto tag = mac.final();
    out.write(reinterpret_cast<char*>(tag.data()), tag.size());
    if (!out) throw ToolError("write failed (disk full?): " + output.string());
}

void decryptFile(const fs::path& input, const fs::path& output, const std::string& password) {
    auto in = openInput(input);
    uint64_t size = fs::file_size(input);
    if (size < kHeaderLen + kTagLen + 16) throw ToolError("corrupted file (too short to be encrypted data): " + input.string());
    unsigned char header[kHeaderLen];
    in.read(reinterpret_cast<char*>(header), kHeaderLen);
    if (std::memcmp(header, kMagic, sizeof kMagic) != 0) throw ToolError("not an encrypted file (bad magic): " + input.string());
    uint32_t iterations = 0;
    for (int i = 0; i < 4; ++i) iterations = (iterations << 8) | header[8 + i];
    if (iterations < 100000 || iterations > 10000000) throw ToolError("corrupted header (iteration count " + std::to_string(iterations) + ")");
    const unsigned char* salt = header + 12;
    const unsigned char* iv = header + 12 + kSaltLen;
    uint64_t cipherLen = size - kHeaderLen - kTagLen;
    if (cipherLen % 16 != 0) throw ToolError("corrupted file (ciphertext is not a whole number of blocks)");

    Keys keys;
    deriveKeys(password, salt, iterations, keys);

    // Pass 1: authenticate everything before the tag; nothing is decrypted unless it matches.
    Hmac mac(keys.mac);
    mac.update(header, kHeaderLen);
    std::vector<unsigned char> buf(kChunk), dec(kChunk + EVP_MAX_BLOCK_LENGTH);
    for (uint64_t left = cipherLen; left > 0;) {
        size_t want = static_cast<size_t>(std::min<uint64_t>(left, buf.size()));
        in.read(reinterpret_cast<char*>(buf.data()), want);
        if (static_cast<size_t>(in.gcount()) != want) throw ToolError("corrupted file (truncated)");
        mac.update(buf.data(), want);
        left -= want;
    }
    std::array<unsigned char, kTagLen> stored{};
    in.read(reinterpret_cast<char*>(stored.data()), stored.size());
    auto computed = mac.final();
    if (CRYPTO_memcmp(stored.data(), computed.data(), kTagLen) != 0)
        throw ToolError("HMAC mismatch: wrong password, or the file was modified");

    // Pass 2: decrypt.
    in.clear();
    in.seekg(kHeaderLen);
    auto out = openOutput(output);
    CipherCtx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    if (!ctx || EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_cbc(), nullptr, keys.enc.data(), iv) != 1)
        throw ToolError(opensslError("cipher init failed"));
    Progress progress("decrypt", cipherLen);
    int len = 0;
    for (uint64_t left = cipherLen; left > 0;) {
        size_t want = static_cast<size_t>(std::min<uint64_t>(left, buf.size()));
        in.read(reinterpret_cast<char*>(buf.data()), want);
        if (EVP_DecryptUpdate(ctx.get(), dec.data(), &len, buf.data(), static_cast<int>(want)) != 1) throw ToolError(opensslError("decrypt failed"));
        out.write(reinterpret_cast<char*>(dec.data()), len);
        progress.advance(want);
        left -= want;
    }
    if (EVP_DecryptFinal_ex(ctx.get(), dec.data(), &len) != 1) throw ToolError("decryption failed (bad padding)");
    out.write(reinterpret_cast<char*>(dec.data()), len);
    if (!out) throw ToolError("write failed (disk full?): " + output.string());
}

fs::path defaultOutput(const fs::path& input, bool encrypt) {
    if (encrypt) return fs::path(input.string() + ".enc");
    if (input.extension() == ".enc") return input.parent_path() / input.stem();
    return fs::path(input.string() + ".dec");
}

/** Encrypts or decrypts every regular file under dir into outDir, keeping the relative layout. */
int processDirectory(const fs::path& dir, const fs::path& outDir, const std::string& password, bool encrypt) {
    int failures = 0, done = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied)) {
        if (!entry.is_regular_file()) continue;
        fs::path rel = fs::relative(entry.path(), dir);
        if (!encrypt && rel.extension() != ".enc") continue;
        fs::path target = outDir / (encrypt ? fs::path(rel.string() + ".enc") : rel.parent_path() / rel.stem());
        try {
            encrypt ? encryptFile(entry.path(), target, password) : decryptFile(entry.path(), target, password);
            std::cout << "  " << (encrypt ? "encrypted " : "decrypted ") << rel.string() << " -> " << target.string() << "\n";
            ++done;
        } catch (const ToolError& e) {
            std::cerr << "  error: " << rel.string() << ": " << e.what() << "\n";
            ++failures;
        }
    }
    std::cout << done << " file(s) processed, " << failures << " failure(s)\n";
    return failures ? 1 : 0;
}

bool sameContent(const fs::path& a, const fs::path& b) {
    std::ifstream x(a, std::ios::binary), y(b, std::ios::binary);
    return std::equal(std::istreambuf_iterator<char>(x), std::istreambuf_iterator<char>(),
                      std::istreambuf_iterator<char>(y), std::istreambuf_iterator<char>()) && fs::file_size(a) == fs::file_size(b);
}

int demo() {
    fs::path dir = fs::temp_directory_path() / ("aes-demo-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir / "docs" / "nested");
    std::cout << "No input file given: running the demo in " << dir.string() << "\n\n";

    std::mt19937 rng(12345);
    const char* words[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"};
    fs::path sample = dir / "sample.txt";
    {
        std::ofstream out(sample);
        for (int line = 0; line < 60000; ++line) {
            out << "line " << line << ":";
            for (int w = 0; w < 6; ++w) out << ' ' << words[rng() % 10];
            out << '\n';
        }
    }
    std::ofstream(dir / "docs" / "a.txt") << "first document\n";
    std::ofstream(dir / "docs" / "nested" / "b.txt") << "second document, one level deeper\n";
    const std::string password = "correct horse battery staple";
    std::cout << "[1] sample file: " << sample.filename().string() << " (" << fs::file_size(sample) << " bytes)\n";

    auto t0 = std::chrono::steady_clock::now();
    encryptFile(sample, defaultOutput(sample, true), password);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fs::path enc = defaultOutput(sample, true);
    std::cout << "[2] encrypted -> " << enc.filename().string() << " (" << fs::file_size(enc) << " bytes = 44-byte header + ciphertext + 32-byte HMAC) in "
              << std::fixed << std::setprecision(2) << secs << " s (PBKDF2-SHA256, " << kIterations << " iterations)\n";

    fs::path roundTrip = dir / "sample.decrypted.txt";
    decryptFile(enc, roundTrip, password);
    bool ok = sameContent(sample, roundTrip);
    std::cout << "[3] decrypted -> " << roundTrip.filename().string() << ": " << (ok ? "MATCHES the original" : "DIFFERS from the original") << "\n";

    g_showProgress = false;
    std::cout << "[4] wrong password: ";
    try {
        decryptFile(enc, dir / "wrong.txt", "not the password");
        std::cout << "unexpectedly succeeded\n";
        ok = false;
    } catch (const ToolError& e) {
        std::cout << "rejected (" << e.what() << ")\n";
    }

    std::cout << "[5] tampered file (one ciphertext byte flipped): ";
    fs::path tampered = dir / "tampered.enc";
    fs::copy_file(enc, tampered, fs::copy_options::overwrite_existing);
    {
        std::fstream f(tampered, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(1000);
        char c = 0;
        f.get(c);
        f.seekp(1000);
        f.put(static_cast<char>(c ^ 0x01));
    }
    try {
        decryptFile(tampered, dir / "tampered.txt", password);
        std::cout << "unexpectedly succeeded\n";
        ok = false;
    } catch (const ToolError& e) {
        std::cout << "rejected (" << e.what() << ")\n";
    }

    std::cout << "[6] missing file: ";
    try {
        encryptFile(dir / "nope.txt", dir / "nope.enc", password);
    } catch (const ToolError& e) {
        std::cout << e.what() << "\n";
    }

    std::cout << "[7] --recursive on docs/ -> docs_enc/ and back -> docs_dec/\n";
    processDirectory(dir / "docs", dir / "docs_enc", password, true);
    processDirectory(dir / "docs_enc", dir / "docs_dec", password, false);
    bool treeOk = sameContent(dir / "docs" / "nested" / "b.txt", dir / "docs_dec" / "nested" / "b.txt");
    std::cout << "    nested/b.txt round trip: " << (treeOk ? "MATCHES" : "DIFFERS") << "\n";

    std::cout << "\n" << OpenSSL_version(OPENSSL_VERSION) << "\n" << (ok && treeOk ? "Demo passed." : "Demo FAILED.") << "\n";
    fs::remove_all(dir);
    return ok && treeOk ? 0 : 1;
}

void usage() {
    std::cerr << "usage: aes_tool <path> <password> <encrypt|decrypt> [--output PATH] [--recursive]\n"
                 "       aes_tool            (no arguments: self-test demo in a temporary directory)\n";
}

}  // namespace

int main(int argc, char** argv) {
    try {
        if (argc == 1) return demo();
        std::vector<std::string> positional;
        std::string output;
        bool recursive = false;
        for (int i = 1; i < argc; ++i) {
            std::string arg = argv[i];
            if (arg == "--recursive" || arg == "-r") recursive = true;
            else if (arg == "--output" || arg == "-o") {
                if (++i >= argc) throw ToolError("missing value after --output");
                output = argv[i];
            } else if (arg == "--help" || arg == "-h") {
                usage();
                return 0;
            } else positional.push_back(arg);
        }
        if (positional.size() != 3) {
            usage();
            return 2;
        }
        fs::path input = positional[0];
        const std::string& password = positional[1];
        const std::string& mode = positional[2];
        if (mode != "encrypt" && mode != "decrypt") throw ToolError("mode must be encrypt or decrypt, not " + mode);
        bool encrypt = mode == "encrypt";
        if (password.empty()) throw ToolError("the password must not be empty");
        if (recursive) {
            if (!fs::is_directory(input)) throw ToolError("--recursive needs a directory: " + input.string());
            fs::path outDir = output.empty() ? fs::path(input.string() + (encrypt ? "_enc" : "_dec")) : fs::path(output);
            return processDirectory(input, outDir, password, encrypt);
        }
        fs::path out = output.empty() ? defaultOutput(input, encrypt) : fs::path(output);
        encrypt ? encryptFile(input, out, password) : decryptFile(input, out, password);
        std::cout << (encrypt ? "Encrypted " : "Decrypted ") << input.string() << " -> " << out.string() << "\n";
        return 0;
    } catch (const ToolError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    } catch (const fs::filesystem_error& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
}
