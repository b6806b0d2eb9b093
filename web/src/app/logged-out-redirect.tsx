import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '../components/toast/toast-store';
import { LOGGED_OUT_REDIRECT_DELAY_MS, ToastMessages } from '../lib/messages';
import { PageLoader } from '../components/page-loader';
import { loginPathFor } from './paths';

/** A signed-out visit to an owner screen (spec 000 §6): the toast, then /login after 500 ms, which comes back here once signed in. */
export function LoggedOutRedirect() {
  const navigate = useNavigate();
  const location = useLocation();
  const asked = `${location.pathname}${location.search}`;
  useEffect(() => {
    toast({ ...ToastMessages.loggedOut, variant: 'destructive' });
    const timer = setTimeout(() => navigate(loginPathFor(asked), { replace: true }), LOGGED_OUT_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [navigate, asked]);
  return <PageLoader />;
}
