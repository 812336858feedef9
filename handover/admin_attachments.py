"""A visitor's photo or file on the case page (issue 33): served to staff who may view the
case, from the `visitor_uploads` storage, never by a public URL. The file is what the
upload left after cleaning (memory.uploads: EXIF and GPS gone). Served inline for images,
as a download for PDFs, sandboxed and never sniffed into another type."""

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from handover.selectors import case_transcript_is_expired
from memory.attachments import attachment_bytes, attachments_of_turn


def attachment_view(
    model_admin, request: HttpRequest, case_id: int, seq: int, index: int
) -> HttpResponse:
    case = get_object_or_404(model_admin.get_queryset(request), pk=case_id)
    if not model_admin.has_view_permission(request, case):
        raise PermissionDenied
    if case.conversation_id is None or case_transcript_is_expired(case=case):
        raise Http404
    rows = attachments_of_turn(conversation_id=case.conversation_id, seq=seq)
    if not 0 <= index < len(rows):
        raise Http404
    row = rows[index]
    try:
        data = attachment_bytes(attachment=row)
    except OSError as exc:
        raise Http404 from exc
    response = HttpResponse(data, content_type=row.content_type)
    disposition = "inline" if row.kind == "image" else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{row.name}"'
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "sandbox; default-src 'none'"
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response
