/**
 * Removing a none node without harming what it does not own: {@link
 * dev.noneops.core.teardown.Teardown} (present, stop, removeConfig, destroy), its {@link
 * dev.noneops.core.teardown.TeardownReport} of what was removed and what was kept and why, and
 * the ownership record it goes by: which shared host files the node wrote (path and SHA-256 of
 * what was written), written through {@link dev.noneops.core.teardown.SharedFileWriter}, so
 * teardown and restore touch only what this node wrote and put back the originals. Every data
 * directory is deleted through the mount-safe tree remover.
 */
package dev.noneops.core.teardown;
