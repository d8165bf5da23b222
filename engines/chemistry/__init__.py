"""Chemistry: eight couriers carry feedstock to three vats under standing orders."""
