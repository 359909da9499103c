/*
 * half.h - f16 and bf16 conversions for the tool's own data handling
 * (random inputs, printing, comparing). The public API moves raw bits;
 * the tool needs numbers, rounded to nearest even like the op spec says.
 */
#ifndef RLX_TOOLS_HALF_H
#define RLX_TOOLS_HALF_H

#include <stdint.h>

uint16_t cli_f16_from_float(float f);
float cli_float_from_f16(uint16_t h);
uint16_t cli_bf16_from_float(float f);
float cli_float_from_bf16(uint16_t h);

#endif
