/**
 * The preflight: every check bootstrap, apply and upgrade rely on, each looking without changing
 * anything and reporting a {@link dev.noneops.core.node.internal.preflight.CheckOutcome}.
 */
package dev.noneops.core.node.internal.preflight;
