/**
 * The files the node shares with the host: the ownership record of what it wrote at the shared
 * paths (so teardown and restore touch only those and put back the originals), the writer that
 * keeps it, the saved configuration an upgrade rolls back to, and the records of what the host
 * held before the node came (CNI entries, network links).
 */
package dev.noneops.core.node.internal.files;
