;;; eglot_lsp.el --- Emacs's eglot against `klint server', in batch  -*- lexical-binding: t -*-
;; It opens a racy shader (unsaved text: the file on disk is clean) with the
;; setup docs/editors.md gives, receives the finding through Flymake, picks
;; the "suppress on this line" code action as a user would and sees the
;; finding cleared. Run by eglot_lsp.sh with KLINT (the binary), KLINT_DIR
;; (a scratch folder holding k.comp) and KLINT_EDITORS_DOC (the page) in the
;; environment. Written for Emacs 28
;; with eglot 1.9 (Debian 12's elpa-eglot) and later.

;; Emacs runs with -q --no-site-file: no user or site files, and no packages
;; until asked for here
;; (Debian's elpa-eglot is one, under /usr/share/emacs/site-lisp/elpa).
(require 'package)
(package-activate-all)
(require 'eglot)
(require 'flymake)

(defvar klint-test-binary (getenv "KLINT"))
(defvar klint-test-dir (getenv "KLINT_DIR"))

;; Debian packages no GLSL or HLSL mode; these stand in for glsl-mode and
;; hlsl-mode.
(define-derived-mode glsl-mode prog-mode "GLSL")
(define-derived-mode hlsl-mode prog-mode "HLSL")

;; The setup is docs/editors.md's elisp block under "Emacs (eglot)", read
;; from the page and evaluated with the binary's path for "klint": a page
;; that stops working fails this test.
(defun klint-test-set-up ()
  (with-temp-buffer
    (insert-file-contents (getenv "KLINT_EDITORS_DOC"))
    (unless (and (re-search-forward "^## Emacs (eglot)" nil t)
                 (re-search-forward "^```elisp\n\\(\\(?:.\\|\n\\)*?\\)\n```" nil t))
      (error "docs/editors.md has no elisp block under \"Emacs (eglot)\""))
    (let ((setup (match-string 1)))
      (unless (string-match-p "(\"klint\" \"server\")" setup)
        (error "the documented setup does not start (\"klint\" \"server\"): %s" setup))
      (setq setup (replace-regexp-in-string "(\"klint\" \"server\")"
                                            (format "(%S \"server\")" klint-test-binary) setup t t))
      (with-temp-buffer
        (insert setup)
        (goto-char (point-min))
        (condition-case nil
            (while t (eval (read (current-buffer)) t))
          (end-of-file nil))))))

(defun klint-test-wait (what predicate)
  "Wait up to 30 s for PREDICATE, as an editor the user left idle.
Processes and timers run; so do idle timers, which batch Emacs never
runs by itself (eglot sends didChange, and Flymake starts, on them)."
  (let ((deadline (+ (float-time) 30)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05)
      (mapc #'timer-event-handler (copy-sequence timer-idle-list)))
    (unless (funcall predicate) (error "%s" (funcall what)))))

(defun klint-test-run ()
  (klint-test-set-up)
  (find-file (expand-file-name "k.comp" klint-test-dir))
  (erase-buffer)
  (insert "#version 450\n"
          "layout(local_size_x = 64) in;\n"
          "layout(binding = 0) buffer Data { float x[]; };\n"
          "shared float tile[64];\n"
          "void main() {\n"
          "    uint tid = gl_LocalInvocationID.x;\n"
          "    tile[tid] = x[gl_GlobalInvocationID.x];\n"
          "    memoryBarrierShared();\n"
          "    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];\n"
          "}\n")
  (glsl-mode)
  ;; eglot-ensure connects after the command that opened the file.
  (run-hooks 'post-command-hook)
  (klint-test-wait (lambda () "eglot did not start klint server") (lambda () (eglot-current-server)))
  (klint-test-wait (lambda () "no diagnostics came") (lambda () (flymake-diagnostics)))
  (let* ((diagnostics (flymake-diagnostics))
         (found (car diagnostics))
         (lsp (cdr (assoc 'eglot-lsp-diag (eglot--diag-data found)))))
    (unless (= (length diagnostics) 1) (error "expected one diagnostic, got %S" diagnostics))
    (unless (equal (plist-get lsp :code) "insufficient-barrier") (error "the code: %S" lsp))
    (unless (= (line-number-at-pos (flymake-diagnostic-beg found)) 8) (error "the line: %S" lsp))
    (unless (string-match-p "memoryBarrierShared()" (flymake-diagnostic-text found))
      (error "the text: %S" (flymake-diagnostic-text found)))
    ;; As M-x eglot-code-actions on the finding, answering its prompt.
    (let ((completing-read-function
           (lambda (_prompt collection &rest _)
             (let ((title "Suppress insufficient-barrier on this line"))
               (unless (assoc title collection) (error "no suppression action in %S" (mapcar #'car collection)))
               title)))
          (last-nonmenu-event ?\r))
      (eglot-code-actions (flymake-diagnostic-beg found) (flymake-diagnostic-end found) nil t)))
  (let ((line (save-excursion (goto-char (point-min)) (forward-line 7)
                              (buffer-substring-no-properties (point) (line-end-position)))))
    (unless (equal line "    // klint-ignore-next-line: insufficient-barrier")
      (error "the edit: %S" (buffer-string))))
  ;; eglot sends the edit as didChange; the server lints it and clears the finding.
  (klint-test-wait (lambda () (format "the finding stayed: %S" (flymake-diagnostics)))
                   (lambda () (null (flymake-diagnostics))))
  (eglot-shutdown (eglot-current-server)))

(condition-case failure
    (progn
      (klint-test-run)
      (princ "eglot_lsp: the finding came, and went with the suppression\n")
      (kill-emacs 0))
  (error
   (message "eglot_lsp: %s" (error-message-string failure))
   (kill-emacs 1)))
