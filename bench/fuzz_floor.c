/*
 * fuzz_floor.c - a libFuzzer target whose body does nothing.  bench/fuzz
 * runs it with each target's options and seeds, built with the same
 * flags, to measure what the engine itself costs per execution: the
 * floor a target's speed is reported against.
 */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	return 0;
}
