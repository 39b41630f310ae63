"""TCP port scanner on top of nmap (python-nmap)."""
import nmap


def scan(host, ports):
    scanner = nmap.PortScanner()
    scanner.scan(host, ports, arguments="-sT -Pn")
    found = []
    for proto in scanner[host].all_protocols():
        for port, info in sorted(scanner[host][proto].items()):
            found.append((port, info["state"]))
    return found


if __name__ == "__main__":
    for port, state in scan("127.0.0.1", "20-25"):
        print(f"127.0.0.1:{port} {state}")
    print("scan complete")
