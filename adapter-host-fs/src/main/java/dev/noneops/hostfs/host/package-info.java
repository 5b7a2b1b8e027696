/** Facts about the host: architecture, kernel, host name, GPU devices, KVM, nameservers. */
package dev.noneops.hostfs.host;
