#include "cpu_features.h"

#if defined(__x86_64__)
#include <cpuid.h>

#define CPUID_LEAF_EXTENDED_FEATURES 7
#define EBX_BIT_BMI2 (1u << 8)
#define EBX_BIT_ADX (1u << 19)

int cpu_has_mulx_adx(void)
{
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid_count(CPUID_LEAF_EXTENDED_FEATURES, 0, &eax, &ebx, &ecx, &edx))
        return 0;
    const unsigned needed = EBX_BIT_BMI2 | EBX_BIT_ADX;
    return (ebx & needed) == needed;
}
#else
int cpu_has_mulx_adx(void)
{
    return 0;
}
#endif
