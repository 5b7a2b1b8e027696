/**
 * Removing a none node without harming what it does not own: {@link
 * dev.noneops.core.teardown.Teardown} (present, stop, removeConfig, destroy), its {@link
 * dev.noneops.core.teardown.TeardownReport} of what was removed and what was kept and why, and
 * the mount-safe {@link dev.noneops.core.teardown.SafeTreeRemover} every data directory is deleted
 * through.
 */
package dev.noneops.core.teardown;
