/** The kernel's modules and sysctls ({@link dev.noneops.ports.kernel.KernelTuning}). */
package dev.noneops.ports.kernel;
