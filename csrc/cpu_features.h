/* The one place that asks the CPU what it can do. */
#ifndef EVM384_CPU_FEATURES_H
#define EVM384_CPU_FEATURES_H

/* Non-zero when MULX (BMI2) and ADCX/ADOX (ADX) are available. */
int cpu_has_mulx_adx(void);

#endif
