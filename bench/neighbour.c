/*
 * neighbour.c - a noisy neighbour for the benchmarks: reads and writes a
 * buffer at random, forever, so that the caches the benchmark shares
 * with it (the third level; a hyperthread sibling's first and second)
 * keep being evicted, as another tenant's work would.
 *
 *   neighbour [MIB]        buffer size in MiB (default 64, at most 4096)
 *
 * bench/codec runs it beside itself when NEIGHBOUR=1 and stops it when
 * it is done.  It exits 2 on bad usage or when the memory is not there.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	unsigned long mib = 64;
	if (argc > 2 || (argc == 2 && ((mib = strtoul(argv[1], NULL, 10)) == 0 || mib > 4096))) {
		fprintf(stderr, "usage: neighbour [MIB]   (1..4096, default 64)\n");
		return 2;
	}
	size_t n = (size_t)mib << 17; /* 64-bit words */
	volatile uint64_t *b = malloc(n * sizeof *b);
	if (!b) {
		fprintf(stderr, "neighbour: cannot allocate %lu MiB\n", mib);
		return 2;
	}
	for (size_t i = 0; i < n; i++)
		b[i] = i;
	uint64_t x = 0x9e3779b97f4a7c15ull, sum = 0;
	for (;;) {
		/* xorshift: a random line each time, the prefetchers no help */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		sum += b[x % n];
		b[(x >> 20) % n] = sum;
	}
}
