/* runner.c - the multi-device runner (filled in below). */
