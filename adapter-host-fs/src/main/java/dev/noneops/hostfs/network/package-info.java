/** The host's network links over iproute2 ({@code ip -j}). */
package dev.noneops.hostfs.network;
