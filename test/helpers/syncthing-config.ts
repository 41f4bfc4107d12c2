import * as net from "node:net";

// The config.xml of one Syncthing 1.19 instance of a test pair (test/helpers/syncthing.ts): loopback
// only, nothing that reaches the internet, one folder shared with exactly one other device.
// Elements left out take Syncthing's defaults; everything that decides where Syncthing connects or
// what it sends is written out, and test/helpers/syncthing.ts reads the running config back and
// refuses to go on if any of it is not as written here.

export interface InstanceConfig {
	deviceId: string;
	name: string;
	guiPort: number;
	apiKey: string;
	listenPort: number;
	/**
	 * The other device of the pair. With `listenPort` this instance dials it at tcp://127.0.0.1:PORT;
	 * without, its address is `dynamic`, which with discovery off resolves to nothing: this instance
	 * then only accepts the other's connection and never dials it.
	 */
	peer: { deviceId: string; name: string; listenPort?: number };
	folder: { id: string; path: string; rescanIntervalS: number; fsWatcherDelayS: number };
}

/** Config schema version of Syncthing 1.19 (`syncthing generate` writes it). */
const CONFIG_VERSION = 36;

const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function configXml(c: InstanceConfig): string {
	const f = c.folder;
	return `<configuration version="${CONFIG_VERSION}">
    <folder id="${xmlEscape(f.id)}" label="${xmlEscape(f.id)}" path="${xmlEscape(f.path)}" type="sendreceive" rescanIntervalS="${f.rescanIntervalS}" fsWatcherEnabled="true" fsWatcherDelayS="${f.fsWatcherDelayS}" ignorePerms="false" autoNormalize="true">
        <filesystemType>basic</filesystemType>
        <device id="${c.deviceId}" introducedBy=""></device>
        <device id="${c.peer.deviceId}" introducedBy=""></device>
        <minDiskFree unit="%">0</minDiskFree>
        <maxConflicts>10</maxConflicts>
        <markerName>.stfolder</markerName>
        <paused>false</paused>
    </folder>
    <device id="${c.deviceId}" name="${xmlEscape(c.name)}" compression="metadata" introducer="false" skipIntroductionRemovals="false" introducedBy="">
        <address>dynamic</address>
        <paused>false</paused>
        <autoAcceptFolders>false</autoAcceptFolders>
    </device>
    <device id="${c.peer.deviceId}" name="${xmlEscape(c.peer.name)}" compression="metadata" introducer="false" skipIntroductionRemovals="false" introducedBy="">
        <address>${c.peer.listenPort === undefined ? "dynamic" : `tcp://127.0.0.1:${c.peer.listenPort}`}</address>
        <paused>false</paused>
        <autoAcceptFolders>false</autoAcceptFolders>
    </device>
    <gui enabled="true" tls="false" debugging="false">
        <address>127.0.0.1:${c.guiPort}</address>
        <apikey>${xmlEscape(c.apiKey)}</apikey>
        <theme>default</theme>
    </gui>
    <options>
        <listenAddress>tcp://127.0.0.1:${c.listenPort}</listenAddress>
        <globalAnnounceServer></globalAnnounceServer>
        <globalAnnounceEnabled>false</globalAnnounceEnabled>
        <localAnnounceEnabled>false</localAnnounceEnabled>
        <relaysEnabled>false</relaysEnabled>
        <natEnabled>false</natEnabled>
        <stunServer></stunServer>
        <stunKeepaliveStartS>0</stunKeepaliveStartS>
        <announceLANAddresses>false</announceLANAddresses>
        <urAccepted>-1</urAccepted>
        <urSeen>3</urSeen>
        <crashReportingEnabled>false</crashReportingEnabled>
        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
        <startBrowser>false</startBrowser>
        <reconnectionIntervalS>5</reconnectionIntervalS>
        <minHomeDiskFree unit="%">0</minHomeDiskFree>
        <restartOnWakeup>false</restartOnWakeup>
    </options>
</configuration>
`;
}

/**
 * `n` distinct TCP ports on 127.0.0.1 that were free a moment ago: all `n` are held open at once
 * (so they differ), then released for Syncthing to bind.
 */
export async function freePorts(n: number): Promise<number[]> {
	const servers: net.Server[] = [];
	try {
		const ports: number[] = [];
		for (let i = 0; i < n; i++) {
			const server = net.createServer();
			servers.push(server);
			await new Promise<void>((resolve, reject) => {
				server.once("error", reject);
				server.listen(0, "127.0.0.1", () => resolve());
			});
			ports.push((server.address() as net.AddressInfo).port);
		}
		return ports;
	} finally {
		await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
	}
}
