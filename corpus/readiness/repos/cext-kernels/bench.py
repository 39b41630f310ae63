import fastfma

total = 0.0
for i in range(100000):
    total = fastfma.fma3(1.0000001, total, 1.0) if i % 2 else total + 1
print("ok", round(total, 3))
