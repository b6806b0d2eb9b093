import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../components/toast/toast-store';
import { LOGGED_OUT_REDIRECT_DELAY_MS, ToastMessages } from '../lib/messages';
import { PageLoader } from '../components/page-loader';
import { PUBLIC_PATHS } from './paths';

/** A signed-out visit to an owner screen (spec 000 §6): the toast, then /login after 500 ms. */
export function LoggedOutRedirect() {
  const navigate = useNavigate();
  useEffect(() => {
    toast({ ...ToastMessages.loggedOut, variant: 'destructive' });
    const timer = setTimeout(() => navigate(PUBLIC_PATHS.login, { replace: true }), LOGGED_OUT_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return <PageLoader />;
}
