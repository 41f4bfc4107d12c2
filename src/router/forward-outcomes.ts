import type { RoutingDecision } from "../core/decision";
import { messageFileName } from "../core/compose";
import type { IndexEntry } from "../core/message-index";
import { serialiseMessage } from "../core/message-serialise";
import { basename, joinPath } from "../core/paths";
import { remoteResponse, remoteResponseId } from "../core/remote-answer";
import type { RemoteAnswer } from "../core/remote-answer";
import { artifactNames, remoteFileBytes, safeArtifactName } from "../core/remote-files";
import { stampAnswered, stampDead, stampDeliveredResponse, stampNoteText } from "../core/stamps";
import { createUnderFreeName, freePathIn } from "./free-names";
import type { PassContext } from "./pass-context";

// How a request to a remote group ends (src/router/forwarder.ts follows it there): the remote's
// answer as a response note in the requester's inbox (its file bytes saved beside it when they are
// text), then the request archived as answered; or rule 8's TIMEOUT, as for a local request. Each
// step finds what an interrupted run of it already did (the response has one id per request, a
// saved file is found by its content), so running it again after a crash does nothing twice.

export class ForwardOutcomes {
	constructor(private readonly router: PassContext) {}

	/** The request's answer is already in its requester's inbox (a crash came before the archive). */
	answered(entry: IndexEntry): boolean {
		const responseId = remoteResponseId(entry.messageId ?? "");
		return this.router.index.withId(responseId).some((r) => r.kind === "response" && r.location.area === "box" && r.location.box !== "outbox");
	}

	/** Rule 8's end, as for a local request: the timeout response, then the request to dead-letter/ as timed_out. */
	async timeout(path: string, entry: IndexEntry): Promise<RoutingDecision | null> {
		const router = this.router;
		const read = await router.port.read(path);
		if (!read) return null;
		const now = router.now();
		const reason = `the remote agent of ${entry.targetGroup ?? "?"} did not finish after ${entry.attempt ?? 1} attempt(s); the last one expired at ${entry.expiresAt ?? "an unknown time"}`;
		const id = entry.messageId ?? basename(path);
		const stamped = stampNoteText(read.text, path, "flat", (fm) => stampDead(fm, "TIMEOUT", reason, now, "timed_out", id));
		if (entry.sourceGroup && router.layout.hasGroup(entry.sourceGroup) && entry.traceId) {
			await router.sendRouterResponse({
				kind: "timeout",
				deadMessageId: id,
				traceId: entry.traceId,
				sender: entry.sourceGroup,
				intendedTarget: entry.targetGroup,
				code: "TIMEOUT",
				reason,
				deadLetterPath: await freePathIn(router.port, router.layout.deadLetterFolder, basename(path), id),
				occasion: "",
				now,
			});
		}
		return router.transfer({ path, read }, router.layout.deadLetterFolder, id, stamped, "timed_out", { error_code: "TIMEOUT", reason });
	}

	/** The remote's answer as a response in the requester's inbox, then the request to its archive; the decision when the response is new. */
	async answer(path: string, answer: RemoteAnswer, taskId: string | undefined): Promise<RoutingDecision | null> {
		const router = this.router;
		const request = router.index.get(path);
		if (!request?.messageId || !request.sourceGroup) return null;
		const inbox = router.layout.box(request.sourceGroup, "inbox");
		if (!inbox) return null;
		let decision: RoutingDecision | null = null;
		const now = router.now();
		const response = remoteResponse(request, await this.saveFiles(request.sourceGroup, answer), now, taskId);
		const responseId = response.envelope.message_id as string;
		if (!this.answered(request)) {
			const name = messageFileName(response, now);
			const stamped = stampNoteText(serialiseMessage(response), name, "flat", (fm) =>
				stampDeliveredResponse(fm, { target: request.sourceGroup as string, now, request: { messageId: request.messageId, deliveredAt: request.deliveredAt }, late: false, fallbackId: responseId }),
			);
			await router.port.ensureFolder(inbox);
			const written = await createUnderFreeName(router.port, inbox, name, stamped.text, responseId);
			const entry = router.indexSync.indexText(written, stamped.text);
			decision = router.decision("answered", written, path, entry, answer.status === "error" ? { error_code: answer.errorCode, reason: answer.errorMessage } : {});
			await router.log.write(decision);
		}
		await this.archive(path);
		return decision;
	}

	/**
	 * The file bytes of an answer, saved as they came under the requester's `artifacts/` folder (safe
	 * names, never over another file; the same file saved again after a crash is found, not doubled)
	 * and listed with the answer's artifacts; a file that cannot be saved is named in the answer with why.
	 */
	private async saveFiles(requester: string, answer: RemoteAnswer): Promise<RemoteAnswer> {
		if (answer.files.length === 0) return answer;
		const router = this.router;
		const groupFolder = router.layout.groupFolder(requester);
		const artifacts = [...answer.artifacts];
		const unsaved: string[] = [];
		for (const file of answer.files) {
			const content = remoteFileBytes(file);
			if (!content.ok || groupFolder === null) {
				unsaved.push(`- ${safeArtifactName(file.name)}: ${content.ok ? "no folder to save it in" : content.reason}`);
				continue;
			}
			const folder = joinPath(groupFolder, "artifacts");
			await router.port.ensureFolder(folder);
			let saved: string | null = null;
			for (const name of artifactNames(file.name)) {
				const path = joinPath(folder, name);
				if ((await router.port.createBytes(path, content.bytes)) !== "taken") {
					saved = path;
					break;
				}
			}
			if (saved === null) unsaved.push(`- ${safeArtifactName(file.name)}: no free name in ${folder}`);
			else artifacts.push(saved);
		}
		const note = unsaved.length > 0 ? `Files the remote agent sent that were not saved:\n${unsaved.join("\n")}` : "";
		return { ...answer, artifacts, files: [], answer: [answer.answer ?? "", note].filter((t) => t !== "").join("\n\n") || undefined };
	}

	/** Marks the answered request answered where it is, then moves it to its group's archive. */
	async archive(path: string): Promise<void> {
		const router = this.router;
		const read = await router.port.read(path);
		const entry = router.index.get(path);
		if (!read || !entry || entry.location.area !== "box") return;
		const stamped = stampNoteText(read.text, path, "flat", (fm) => stampAnswered(fm, router.now()));
		if ((await router.port.replace(path, stamped.text, read)) !== "done") return;
		router.indexSync.indexFields(path, stamped.fields);
		const folder = router.layout.archiveFolder(entry.location.group, new Date(router.now()));
		if (!folder) return;
		const dest = await router.writerMove(path, folder, basename(path), entry.messageId ?? basename(path));
		router.indexSync.remove(path);
		if (dest) await router.indexSync.refresh(dest);
	}
}
