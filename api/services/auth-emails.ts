// The two account e-mails (verify address, recover password) and their links. Both links go
// through the web app's /auth/callback, which exchanges the code for a session
// (POST /api/auth/exchange); recovery links also carry #type=recovery so the callback opens the
// update-password form.
import type { MailMessage } from "./mailer";

export interface LinkContext {
  publicUrl: string;
  productName: string;
}

function callbackLink(ctx: LinkContext, code: string, redirect: string, hash = ""): string {
  const query = new URLSearchParams({ code, redirect });
  return `${ctx.publicUrl}/auth/callback?${query.toString()}${hash}`;
}

export function verificationLink(ctx: LinkContext, code: string): string {
  return callbackLink(ctx, code, "/app");
}

export function recoveryLink(ctx: LinkContext, code: string): string {
  return callbackLink(ctx, code, "/auth?view=update_password", "#type=recovery");
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function layout(title: string, intro: string, button: string, link: string, outro: string): string {
  const href = escapeHtml(link);
  return [
    "<!doctype html><html><body style=\"font-family:system-ui,sans-serif;line-height:1.5\">",
    `<h1 style="font-size:20px">${escapeHtml(title)}</h1>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${href}" style="display:inline-block;padding:10px 18px;background:#6d28d9;color:#fff;`,
    `border-radius:6px;text-decoration:none">${escapeHtml(button)}</a></p>`,
    `<p>If the button does not work, open this address:<br><a href="${href}">${href}</a></p>`,
    `<p style="color:#666">${escapeHtml(outro)}</p>`,
    "</body></html>",
  ].join("");
}

export function verificationEmail(ctx: LinkContext, to: string, code: string): MailMessage {
  const link = verificationLink(ctx, code);
  const intro = `Welcome to ${ctx.productName}! Please confirm your email address to finish setting up your account.`;
  const outro = "This link works once and expires in 24 hours. If you did not create an account, ignore this email.";
  return {
    to,
    subject: `Confirm your email address for ${ctx.productName}`,
    text: `${intro}\n\nConfirm your email address:\n${link}\n\n${outro}\n`,
    html: layout("Confirm your email address", intro, "Confirm email", link, outro),
  };
}

export function recoveryEmail(ctx: LinkContext, to: string, code: string): MailMessage {
  const link = recoveryLink(ctx, code);
  const intro = `Someone asked to reset the password of your ${ctx.productName} account. Open the link below to choose a new password.`;
  const outro = "This link works once and expires in 1 hour. If you did not ask for a reset, ignore this email; your password stays the same.";
  return {
    to,
    subject: `Reset your ${ctx.productName} password`,
    text: `${intro}\n\nReset your password:\n${link}\n\n${outro}\n`,
    html: layout("Reset your password", intro, "Choose a new password", link, outro),
  };
}
