/**
 * noneops' domain and use cases. Core does no I/O of its own: every effect on the host goes
 * through a port of {@code dev.noneops.ports}.
 */
package dev.noneops.core;
