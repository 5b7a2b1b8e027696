/** The host's network links and addresses ({@link dev.noneops.ports.network.HostNetwork}). */
package dev.noneops.ports.network;
