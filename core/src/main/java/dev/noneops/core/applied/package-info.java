/**
 * The applied config: the configuration a node runs with, persisted by the caller after a
 * successful bootstrap or upgrade, and read back at daemon start (for upgrade recovery).
 */
package dev.noneops.core.applied;
